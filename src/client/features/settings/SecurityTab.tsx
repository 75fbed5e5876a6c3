import { Button, Group, Stack, Title } from '@mantine/core';
import { FORM_ERROR } from 'final-form';
import { Form } from 'react-final-form';
import { changePasswordSchema, type ChangePasswordPayload } from '../../../shared/schemas/users';
import { replaceToken, useAuth } from '../../lib/auth-store';
import { PasswordField } from '../../lib/form/fields';
import { validateWith } from '../../lib/form/validate';
import { notify } from '../../lib/toast/notify';
import { changePassword } from './api';

const validate = validateWith(changePasswordSchema);

export function SecurityTab() {
  const { user } = useAuth();

  const submit = async (values: ChangePasswordPayload) => {
    try {
      // The change ends every older session, this one included: the answer's token keeps it going.
      // (An upstream API from before DESIGN.md §6 answers without one; the old token then still works.)
      const { token } = await changePassword(values);
      if (token) replaceToken(token);
      notify.success('Password Changed');
    } catch (error) {
      notify.error('Password not changed', (error as Error).message);
      // A failed submit keeps what was typed, so a refused password can be corrected in place.
      return { [FORM_ERROR]: (error as Error).message };
    }
    return undefined;
  };

  return (
    <Form<ChangePasswordPayload>
      onSubmit={submit}
      validate={validate}
      initialValues={{ id: user?.id ?? 0, newPassword: '', confirmPassword: '' }}
      render={({ handleSubmit, submitting, form }) => (
        <form
          onSubmit={async (event) => {
            await handleSubmit(event);
            if (form.getState().submitSucceeded) form.restart();
          }}
          noValidate
        >
          <Stack>
            <Title order={3}>Change Password</Title>
            <PasswordField name="newPassword" label="New Password" autoComplete="new-password" />
            <PasswordField name="confirmPassword" label="Confirm Password" autoComplete="new-password" />
            <Group justify="flex-end">
              <Button type="submit" loading={submitting} disabled={submitting}>
                Update Password
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    />
  );
}
