import { Button, Group } from '@mantine/core';

/** A form's submit button, disabled and spinning while the request runs. */
export function SubmitButton({ label, submitting = false }: { label: string; submitting?: boolean }) {
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={submitting} disabled={submitting}>
        {label}
      </Button>
    </Group>
  );
}
