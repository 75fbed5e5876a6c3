import { array, boolean, object, string, type InferType } from 'yup';
import { emailText, filledLine, line, paragraph } from './fields';

/** A company has at most this many mail domains (docs/api.md#mail). */
export const EMAIL_DOMAINS_MAX = 20;
/** A host name as mail uses it: labels of letters, digits and inner hyphens, a dot between, a top level of letters. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A domain as people type it (`@Acme.COM `) as it is stored: bare and lower-case. */
const bareDomain = (value: string) => value.trim().replace(/^@/, '').toLowerCase();

/** One mail domain; checked as it will be stored, since the provider validates before transforming. */
export const emailDomain = () =>
  string()
    .transform((value: unknown) => (typeof value === 'string' ? bareDomain(value) : value))
    .test('domain', ({ value }) => `${bareDomain(String(value)).slice(0, 60)} is not a mail domain (such as example.com)`, (value) => value == null || DOMAIN.test(bareDomain(value)));

const emailDomains = () =>
  array(emailDomain().required('Required'))
    .max(EMAIL_DOMAINS_MAX, `At most ${EMAIL_DOMAINS_MAX} mail domains`)
    .test('distinct', 'Each mail domain once', (domains) => !domains || new Set(domains.map((domain) => bareDomain(String(domain)))).size === domains.length);

const companyFields = {
  code: line(20),
  email: emailText(254, 'Must be a valid email address'),
  phone: line(40),
  address: paragraph(500),
  emailDomains: emailDomains(),
  isActive: boolean(),
};

export const createCompanySchema = object({ name: filledLine(120, 'Required').required('Required'), ...companyFields });
export const updateCompanySchema = object({ name: filledLine(120, 'Required'), ...companyFields });
export type CompanyPayload = InferType<typeof createCompanySchema>;
export type CompanyChanges = InferType<typeof updateCompanySchema>;

const categoryFields = { description: paragraph(500), isActive: boolean() };

export const createTicketCategorySchema = object({ name: filledLine(80, 'Required').required('Required'), ...categoryFields });
export const updateTicketCategorySchema = object({ name: filledLine(80, 'Required'), ...categoryFields });
export type TicketCategoryPayload = InferType<typeof createTicketCategorySchema>;
export type TicketCategoryChanges = InferType<typeof updateTicketCategorySchema>;
