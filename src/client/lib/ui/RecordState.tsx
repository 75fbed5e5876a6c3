import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadError } from './LoadError';

interface RecordStateProps<T> {
  /** The record's read, as its SWR hook answers it. */
  read: { data?: T; error?: Error; mutate: () => unknown };
  /** What the record is called, capitalised: "Ticket", "User". */
  noun: string;
  children: (record: T) => ReactNode;
}

/**
 * A drawer's record in its three states: loading, a failed read with a way to ask again, and the
 * record itself. A failed re-read of a record already shown keeps it below the error.
 */
export function RecordState<T>({ read, noun, children }: RecordStateProps<T>) {
  return (
    <>
      {read.error ? <LoadError title={`${noun} not loaded`} error={read.error} onRetry={() => void read.mutate()} /> : null}
      {!read.data && !read.error ? (
        <Center py="xl" aria-busy="true">
          <Loader aria-label={`Loading ${noun.toLowerCase()}`} />
        </Center>
      ) : null}
      {read.data ? children(read.data) : null}
    </>
  );
}
