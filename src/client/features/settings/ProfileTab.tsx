import { Stack } from '@mantine/core';
import { profileSchema, type ProfilePayload } from '../../../shared/schemas/users';
import type { User } from '../../../shared/types';
import { ApiError } from '../../lib/api';
import { updateStoredUser, useAuth } from '../../lib/auth-store';
import { TextField } from '../../lib/form/fields';
import { TimeZoneField } from '../../lib/form/TimeZoneField';
import { validateWith } from '../../lib/form/validate';
import { MutationForm } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
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

  const update: Mutation<ProfilePayload, User> = {
    send: async (values) => {
      const response = await updateProfile(values);
      // docs/api.md#errors: some providers answer a conflict with a body that carries status 409.
      if (conflictDetail(response)) throw new ApiError(409, conflictDetail(response) ?? '', response);
      return response;
    },
    success: () => ['Profile Updated'],
    failure: (error) => {
      const conflict = conflictDetail(error);
      return conflict ? [conflict] : ['Profile not updated', error.message];
    },
    onSuccess: (saved, values) => updateStoredUser({ firstName: values.firstName, surname: values.surname, email: values.email, timeZone: saved.timeZone }),
  };

  return (
    <MutationForm<ProfilePayload, User>
      mutation={update}
      validate={validate}
      initialValues={{
        id: user?.id ?? 0,
        firstName: user?.firstName ?? '',
        surname: user?.surname ?? '',
        email: user?.email ?? '',
        // A session stored before people had a zone has none: theirs is UTC until they choose.
        timeZone: user?.timeZone ?? 'UTC',
      }}
    >
      {({ submitting }) => (
        <Stack>
          <TextField name="firstName" label="First Name" autoComplete="given-name" />
          <TextField name="surname" label="Surname" autoComplete="family-name" />
          <TextField name="email" label="Email Address" type="email" autoComplete="email" />
          <TimeZoneField name="timeZone" label="Time zone" description="Your daily mail digest goes at 07:00 in this zone" />
          <SubmitButton label="Update Profile" submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}
