export const FIRST_NAMES = ['Amelia', 'Ben', 'Chloe', 'Daniel', 'Ella', 'Farid', 'Grace', 'Hannah', 'Isaac', 'Jade', 'Kofi', 'Lena', 'Marco', 'Nadia', 'Oscar', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tariq', 'Uma', 'Victor', 'Wen', 'Yusuf', 'Zara'];
export const SURNAMES = ['Abbott', 'Banda', 'Carter', 'Dlamini', 'Evans', 'Fischer', 'Garcia', 'Hughes', 'Ivanova', 'Jensen', 'Khan', 'Lopez', 'Mokoena', 'Nguyen', 'Okafor', 'Patel', 'Quispe', 'Reyes', 'Smith', 'Tanaka', 'Usman', 'Visser', 'Walker', 'Xu', 'Young'];

export const COMPANIES = [
  ['Acme Logistics', 'ACME'],
  ['Blue Harbour Freight', 'BHF'],
  ['Cedar Health', 'CEDR'],
  ['Delta Fleet Services', 'DFS'],
  ['Evergreen Farms', 'EVG'],
  ['Falcon Mining', 'FALC'],
  ['Granite Construction', 'GRAN'],
  ['Horizon Retail', 'HRZN'],
  ['Ironwood Security', 'IRON'],
  ['Juniper Finance', 'JUNI'],
  ['Kestrel Couriers', 'KEST'],
  ['Lakeside Hotels', 'LAKE'],
  ['Meridian Energy', 'MERI'],
  ['Northwind Traders', 'NWT'],
  ['Orchid Telecom', 'ORCH'],
  ['GIFS Group', 'GIFS'],
] as const;

export const GIFS_COMPANY = 'GIFS Group';

export const CATEGORIES = [
  ['Hardware', 'Trackers, routers, laptops and other devices'],
  ['Software', 'Applications, updates and licences'],
  ['Network', 'Connectivity, VPN and Wi-Fi'],
  ['Access', 'Accounts, passwords and permissions'],
  ['Billing', 'Invoices, statements and payments'],
  ['Reporting', 'Dashboards, exports and data questions'],
  ['Installation', 'New sites, vehicles and devices'],
  ['Other', 'Anything that fits nowhere else'],
] as const;

export const SUBJECTS = ['Tracker', 'Dashboard', 'VPN', 'Invoice', 'Report', 'Printer', 'Laptop', 'Azure subscription', 'Mobile app', 'Email', 'Router', 'Fleet map', 'User account', 'SLA report', 'Backup'];
export const PROBLEMS = ['not responding', 'shows wrong totals', 'keeps disconnecting', 'needs to be set up', 'is very slow', 'fails to sync', 'access requested', 'missing data for last week', 'error on login', 'needs a replacement', 'duplicated entries', 'times out'];

export const COMMENTS = [
  'Looking into this now.',
  'Could you send a screenshot of the error?',
  'Restarted the service; please check again.',
  'Waiting for the customer to confirm.',
  'Escalated to the vendor.',
  'Replaced the unit on site.',
  'Confirmed fixed by the customer.',
  'Applied the configuration change from the runbook.',
  'This is the same issue as last month; linking the notes.',
  'Scheduled a visit for Thursday morning.',
];

export const TIME_NOTES = ['Investigation', 'Remote session', 'Site visit', 'Configuration', 'Call with customer', 'Testing', 'Documentation', ''];

/** Invoice line templates per source: description, quantity range, unit price range in cents. */
export type LineTemplate = readonly [description: string, quantity: readonly [number, number], unitPriceCents: readonly [number, number]];

export const LINE_TEMPLATES: Record<string, readonly LineTemplate[]> = {
  autofi: [
    ['Vehicle tracking subscription', [20, 240], [1250, 1990]],
    ['Tracker installation', [1, 12], [35000, 45000]],
    ['Driver behaviour module', [10, 120], [450, 650]],
  ],
  '3dtracking': [
    ['3D tracking licence', [5, 60], [2900, 3900]],
    ['Data plan (per unit)', [5, 60], [799, 1299]],
    ['Mapping service', [1, 1], [150000, 150000]],
  ],
  'gifs-sla': [
    ['SLA monthly fee', [1, 1], [450000, 450000]],
    ['Priority support hours', [2, 20], [9500, 9500]],
  ],
  'gifs-azure': [
    ['Azure compute D4s v5 (hours)', [300, 744], [19, 23]],
    ['Azure SQL database (hours)', [720, 744], [41, 41]],
    ['Azure blob storage (GB)', [200, 2000], [2, 3]],
    ['Azure bandwidth (GB)', [50, 900], [8, 9]],
  ],
};
