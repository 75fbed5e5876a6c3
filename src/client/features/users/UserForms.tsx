import { Stack, Text, Title } from '@mantine/core';
import {
  createUserSchema,
  resetPasswordSchema,
  updateUserSchema,
  type CreateUserPayload,
  type ResetPasswordPayload,
  type UpdateUserPayload,
} from '../../../shared/schemas/users';
import type { User } from '../../../shared/types';
import { ChoiceField, PasswordField, SwitchField, TextField } from '../../lib/form/fields';
import { MutationForm } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { ROLE_OPTIONS } from './RoleBadge';
import { fetchUser } from './api';

const validateCreate = validateWith(createUserSchema);
const validateUpdate = validateWith(updateUserSchema);
const validateReset = validateWith(resetPasswordSchema);

function NameAndEmail() {
  return (
    <>
      <TextField name="firstName" label="First Name" autoComplete="off" />
      <TextField name="surname" label="Surname" autoComplete="off" />
      <TextField name="email" label="Email Address" type="email" autoComplete="off" />
    </>
  );
}

function RoleField() {
  return <ChoiceField name="role" label="Role" data={ROLE_OPTIONS} description="Staff work tickets; billing also edits invoices; admins manage everything" />;
}

const NEW_USER: CreateUserPayload = { firstName: '', surname: '', email: '', password: '', role: 'staff' };

export function CreateUserForm({ mutation }: { mutation: Mutation<CreateUserPayload, User> }) {
  return (
    <MutationForm<CreateUserPayload, User> mutation={mutation} validate={validateCreate} initialValues={NEW_USER}>
      {({ submitting }) => (
        <Stack>
          <NameAndEmail />
          <RoleField />
          <PasswordField name="password" label="Password" autoComplete="new-password" description="They can change it in Settings" />
          <SubmitButton label="Create user" submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}

/** The form's values for a user: only the fields `PATCH users` takes. */
export const userValues = (user: User): UpdateUserPayload => ({
  id: user.id,
  firstName: user.firstName,
  surname: user.surname,
  email: user.email,
  isActive: user.isActive,
  role: user.role,
});

interface EditUserFormProps {
  user: User;
  mutation: Mutation<UpdateUserPayload, User>;
  onReload: (current: User) => void;
}

export function EditUserForm({ user, mutation, onReload }: EditUserFormProps) {
  return (
    <MutationForm<UpdateUserPayload, User>
      mutation={mutation}
      validate={validateUpdate}
      initialValues={userValues(user)}
      record={{ entity: 'user', id: user.id, version: user.version, valuesOf: userValues, onReload, read: fetchUser }}
    >
      {({ submitting }) => (
        <Stack>
          <NameAndEmail />
          <RoleField />
          <SwitchField name="isActive" label="Active (can sign in)" />
          <SubmitButton label="Save changes" submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}

/** An admin sets a new password for someone who has lost theirs; it ends that person's sessions. */
export function ResetPasswordForm({ user, mutation }: { user: User; mutation: Mutation<ResetPasswordPayload, User> }) {
  return (
    // The typed password is cleared once it is set, and kept for another try when it was refused.
    <MutationForm<ResetPasswordPayload, User>
      mutation={mutation}
      validate={validateReset}
      initialValues={{ id: user.id, password: '' }}
      next={() => ({ id: user.id, password: '' })}
    >
      {({ submitting }) => (
        <Stack gap="sm">
          <Title order={3} size="h4">
            Reset password
          </Title>
          <Text size="sm">Sets a new password and signs {user.firstName} out everywhere. Tell them the new one in person.</Text>
          <PasswordField name="password" label="New password" autoComplete="new-password" />
          <SubmitButton label="Reset password" submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}
