import { Navigate, createBrowserRouter } from 'react-router-dom';
import { NotFound } from './NotFound';
import { RequireAuth } from './RequireAuth';

// Pages load on demand: each route names the module that holds its component.
export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/dashboard" replace /> },
  {
    id: '_public',
    children: [
      {
        path: 'login',
        lazy: async () => ({ Component: (await import('../features/auth/LoginPage')).LoginPage }),
      },
    ],
  },
  {
    id: '_authenticated',
    element: <RequireAuth />,
    children: [
      {
        path: 'dashboard',
        lazy: async () => ({ Component: (await import('../features/dashboard/DashboardPage')).DashboardPage }),
      },
    ],
  },
  { path: '*', element: <NotFound /> },
]);
