import { Outlet } from 'react-router-dom';

/** `/invoices/gifs`: the layout around the GIFS views. */
export function GifsLayout() {
  return <Outlet />;
}
