import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../lib/auth-store';

/** Guarded routes: without a token, go to /login with the wanted address to come back to. */
export function RequireAuth() {
  const { token } = useAuth();
  const location = useLocation();
  if (!token) {
    const wanted = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/login?redirect=${encodeURIComponent(wanted)}`} replace />;
  }
  return <Outlet />;
}
