import { LedgerPage } from './LedgerPage';

export function ThreeDTrackingPage() {
  return <LedgerPage source="3dtracking" title="3D Tracking" description="3D Tracking licences and data plans" />;
}
