import { Stack, Title } from '@mantine/core';
import { changePasswordSchema, type ChangePasswordPayload } from '../../../shared/schemas/users';
import type { ChangePasswordResponse } from '../../../shared/types';
import { changeToken, useAuth } from '../../lib/auth-store';
import { PasswordField } from '../../lib/form/fields';
import { validateWith } from '../../lib/form/validate';
import { MutationForm } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
import { changePassword } from './api';
import { PasskeysSection } from './PasskeysSection';

const validate = validateWith(changePasswordSchema);

export function SecurityTab() {
  const { user } = useAuth();

  const change: Mutation<ChangePasswordPayload, ChangePasswordResponse> = {
    // The change ends every older session, this one included: the answer's token keeps it going.
    // (An upstream API from before roles, docs/architecture.md#roles-and-the-audit-log, answers without one; the old token then still works.)
    send: (values) => changeToken(changePassword(values)),
    success: () => ['Password Changed'],
    failure: 'Password not changed',
  };

  const blank = { id: user?.id ?? 0, newPassword: '', confirmPassword: '' };
  return (
    <Stack gap="xl">
      {/* A refused password stays typed, so it can be corrected in place; a changed one is cleared. */}
      <MutationForm<ChangePasswordPayload, ChangePasswordResponse> mutation={change} validate={validate} initialValues={blank} next={() => blank}>
        {({ submitting }) => (
          <Stack>
            <Title order={3}>Change Password</Title>
            <PasswordField name="newPassword" label="New Password" autoComplete="new-password" />
            <PasswordField name="confirmPassword" label="Confirm Password" autoComplete="new-password" />
            <SubmitButton label="Update Password" submitting={submitting} />
          </Stack>
        )}
      </MutationForm>
      <PasskeysSection />
    </Stack>
  );
}
