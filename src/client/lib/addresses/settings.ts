import { SETTINGS_TABS } from '../constants';
import { optionalBoolean, optionalOneOf, useUrlState } from '../url-state';

/** Address values of the authenticated layout: `settings` opens the dialog, `tab` picks its tab. */
export const parseSettingsParams = (params: URLSearchParams) => ({
  settings: optionalBoolean(params.get('settings')),
  tab: optionalOneOf(SETTINGS_TABS, params.get('tab')),
});

export const useSettingsParams = () => useUrlState(parseSettingsParams);
