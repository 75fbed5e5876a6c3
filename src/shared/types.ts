/** Response shapes of the provider API (DESIGN.md §3). */
export interface LoginResponse {
  token: string;
  firstName: string;
  surname: string;
  email: string;
  userId: number;
}

export interface User {
  id: number;
  firstName: string;
  surname: string;
  email: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface BackupResult {
  key: string;
  createdAt: string;
  bytes: number;
  rows: Record<string, number>;
}

export interface BackupListItem {
  key: string;
  createdAt: string;
  bytes: number;
}

export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

export interface ProblemBody {
  title: string;
  status: number;
  detail: string;
}

export interface Company {
  id: number;
  name: string;
  code: string;
  email: string;
  phone: string;
  address: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface TicketCategory {
  id: number;
  name: string;
  description: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Ticket {
  id: number;
  title: string;
  description: string;
  status: 'open' | 'in_progress' | 'on_hold' | 'resolved' | 'closed';
  priority: 'low' | 'normal' | 'high' | 'urgent';
  companyId: number | null;
  companyName: string | null;
  categoryId: number | null;
  categoryName: string | null;
  assigneeId: number | null;
  assigneeName: string | null;
  reporterId: number | null;
  reporterName: string | null;
  dueAt: string | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketComment {
  id: number;
  ticketId: number;
  userId: number;
  userName: string;
  body: string;
  createdAt: string;
}

export interface TimeEntry {
  id: number;
  ticketId: number;
  userId: number;
  userName: string;
  workDate: string;
  minutes: number;
  note: string;
  billable: boolean;
  createdAt: string;
}
