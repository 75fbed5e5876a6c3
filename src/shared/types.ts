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
