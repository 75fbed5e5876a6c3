import { boolean, object, type InferType } from 'yup';
import { emailText, filledLine, line, paragraph } from './fields';

const companyFields = {
  code: line(20),
  email: emailText(254, 'Must be a valid email address'),
  phone: line(40),
  address: paragraph(500),
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
