import type { ProviderBindings } from '../env';

/** The one hub of the whole team. */
export const teamHub = (env: Pick<ProviderBindings, 'LIVE'>) => env.LIVE.get(env.LIVE.idFromName('team'));
