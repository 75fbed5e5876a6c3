import { SETTINGS_TABS } from '../../lib/constants';
import { optionalBoolean, optionalOneOf, useTypedSearch } from '../../lib/search';

/** Search values of the authenticated layout: `settings` opens the dialog, `tab` picks its tab. */
export const parseSettingsSearch = (params: URLSearchParams) => ({
  settings: optionalBoolean(params.get('settings')),
  tab: optionalOneOf(SETTINGS_TABS, params.get('tab')),
});

export const useSettingsSearch = () => useTypedSearch(parseSettingsSearch);
