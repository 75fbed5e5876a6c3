import { Bell } from './Bell';
import LiveRoot from './LiveRoot';

/** The lazy chunk's one entry: the channel, its offline badge and the bell, for the signed-in header. */
export default function LiveHeader() {
  return (
    <>
      <LiveRoot />
      <Bell />
    </>
  );
}
