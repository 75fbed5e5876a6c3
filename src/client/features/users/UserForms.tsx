import { Stack } from '@mantine/core';
import { Form } from 'react-final-form';
import { createUserSchema, updateUserSchema, type CreateUserPayload, type UpdateUserPayload } from '../../../shared/schemas/users';
import type { User } from '../../../shared/types';
import { PasswordField, SwitchField, TextField } from '../../lib/form/fields';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { validateWith } from '../../lib/form/validate';

const validateCreate = validateWith(createUserSchema);
const validateUpdate = validateWith(updateUserSchema);

function NameAndEmail() {
  return (
    <>
      <TextField name="firstName" label="First Name" autoComplete="off" />
      <TextField name="surname" label="Surname" autoComplete="off" />
      <TextField name="email" label="Email Address" type="email" autoComplete="off" />
    </>
  );
}


export function CreateUserForm({ onSubmit }: { onSubmit: (values: CreateUserPayload) => Promise<void> }) {
  return (
    <Form<CreateUserPayload>
      onSubmit={onSubmit}
      validate={validateCreate}
      initialValues={{ firstName: '', surname: '', email: '', password: '' }}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <NameAndEmail />
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
      initialValues={{ id: user.id, firstName: user.firstName, surname: user.surname, email: user.email, isActive: user.isActive }}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <NameAndEmail />
            <SwitchField name="isActive" label="Active (can sign in)" />
            <SubmitButton label="Save changes" submitting={submitting} />
          </Stack>
        </form>
      )}
    />
  );
}
