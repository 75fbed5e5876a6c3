import { useEffect } from 'react';
import { setStoredRole, useAuth } from './auth-store';
import { callApi } from './endpoints';

/**
 * A session stored before roles existed has no role, so its pages offer only what every role may
 * do; the user's own record names the role, once per sign-in.
 */
export const useStoredRole = () => {
  const { token, user } = useAuth();
  const missingFor = token && user && user.role === null ? user.id : null;
  useEffect(() => {
    if (!missingFor) return;
    callApi('GET /users/:id', { params: { id: missingFor } })
      .then((me) => setStoredRole(me.role))
      // Without an answer the session keeps the smallest set of actions; a 401 has signed it out.
      .catch(() => undefined);
  }, [missingFor]);
};
