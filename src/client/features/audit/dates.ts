/**
 * The date inputs hold local calendar days (YYYY-MM-DD); the API compares instants, so a range
 * runs from the first day's local midnight to the last moment of the last day.
 */
export const startOfDay = (day: string | undefined) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);

export const endOfDay = (day: string | undefined) => (day ? new Date(new Date(`${day}T00:00:00`).getTime() + 86_400_000 - 1).toISOString() : undefined);
