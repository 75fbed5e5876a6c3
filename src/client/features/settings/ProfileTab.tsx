import { Button, Group, Stack } from '@mantine/core';
import { Form } from 'react-final-form';
import { profileSchema, type ProfilePayload } from '../../../shared/schemas/users';
import { ApiError } from '../../lib/api';
import { updateStoredUser, useAuth } from '../../lib/auth-store';
import { TextField } from '../../lib/form/fields';
import { validateWith } from '../../lib/form/validate';
import { notify } from '../../lib/toast/notify';
import { updateProfile } from './api';

const validate = validateWith(profileSchema);

const detailOf = (body: unknown) =>
  body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string' && body.detail ? body.detail : null;

// A conflict may come back as an HTTP 409 or, from some providers, as a body with status 409.
const conflictDetail = (bodyOrError: unknown) => {
  if (bodyOrError instanceof ApiError) return bodyOrError.status === 409 ? (detailOf(bodyOrError.body) ?? 'Conflict error') : null;
  const status = bodyOrError && typeof bodyOrError === 'object' && 'status' in bodyOrError ? bodyOrError.status : null;
  return status === 409 ? (detailOf(bodyOrError) ?? 'Conflict error') : null;
};

export function ProfileTab() {
  const { user } = useAuth();

  const submit = async (values: ProfilePayload) => {
    try {
      const response = await updateProfile(values);
      const conflict = conflictDetail(response);
      if (conflict) return void notify.error(conflict);
      updateStoredUser({ firstName: values.firstName, surname: values.surname, email: values.email });
      notify.success('Profile Updated');
    } catch (error) {
      const conflict = conflictDetail(error);
      notify.error(conflict ?? 'Profile not updated', conflict ? undefined : (error as Error).message);
    }
  };

  return (
    <Form<ProfilePayload>
      onSubmit={submit}
      validate={validate}
      initialValues={{
        id: user?.id ?? 0,
        firstName: user?.firstName ?? '',
        surname: user?.surname ?? '',
        email: user?.email ?? '',
      }}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <TextField name="firstName" label="First Name" autoComplete="given-name" />
            <TextField name="surname" label="Surname" autoComplete="family-name" />
            <TextField name="email" label="Email Address" type="email" autoComplete="email" />
            <Group justify="flex-end">
              <Button type="submit" loading={submitting} disabled={submitting}>
                Update Profile
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    />
  );
}
