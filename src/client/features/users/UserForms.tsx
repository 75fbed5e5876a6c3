import { Stack, Text, Title } from '@mantine/core';
import { Form } from 'react-final-form';
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
import { SubmitButton } from '../../lib/form/SubmitButton';
import { validateWith } from '../../lib/form/validate';
import { ROLE_OPTIONS } from './RoleBadge';

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

export function CreateUserForm({ onSubmit }: { onSubmit: (values: CreateUserPayload) => Promise<void> }) {
  return (
    <Form<CreateUserPayload>
      onSubmit={onSubmit}
      validate={validateCreate}
      initialValues={{ firstName: '', surname: '', email: '', password: '', role: 'staff' }}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <NameAndEmail />
            <RoleField />
            <PasswordField name="password" label="Password" autoComplete="new-password" description="They can change it in Settings" />
            <SubmitButton label="Create user" submitting={submitting} />
          </Stack>
        </form>
      )}
    />
  );
}

export function EditUserForm({ user, onSubmit }: { user: User; onSubmit: (values: UpdateUserPayload) => Promise<void> }) {
  return (
    <Form<UpdateUserPayload>
      onSubmit={onSubmit}
      validate={validateUpdate}
      initialValues={{ id: user.id, firstName: user.firstName, surname: user.surname, email: user.email, isActive: user.isActive, role: user.role }}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <NameAndEmail />
            <RoleField />
            <SwitchField name="isActive" label="Active (can sign in)" />
            <SubmitButton label="Save changes" submitting={submitting} />
          </Stack>
        </form>
      )}
    />
  );
}

/** An admin sets a new password for someone who has lost theirs; it ends that person's sessions. */
export function ResetPasswordForm({ user, onSubmit }: { user: User; onSubmit: (values: ResetPasswordPayload) => Promise<boolean> }) {
  return (
    <Form<ResetPasswordPayload>
      onSubmit={async (values, form) => {
        // The typed password is cleared once it is set, and kept for another try when it was refused.
        if (await onSubmit(values)) form.restart();
      }}
      validate={validateReset}
      initialValues={{ id: user.id, password: '' }}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="sm">
            <Title order={3} size="h4">
              Reset password
            </Title>
            <Text size="sm">Sets a new password and signs {user.firstName} out everywhere. Tell them the new one in person.</Text>
            <PasswordField name="password" label="New password" autoComplete="new-password" />
            <SubmitButton label="Reset password" submitting={submitting} />
          </Stack>
        </form>
      )}
    />
  );
}
