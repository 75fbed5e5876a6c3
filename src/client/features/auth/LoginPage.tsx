import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Field, Form } from 'react-final-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { APP_AUDIENCE } from '../../../shared/constants';
import { loginSchema, type LoginPayload } from '../../../shared/schemas/auth';
import { ApiError } from '../../lib/api';
import { signIn } from '../../lib/auth-store';
import { SignOutNotice } from './SignOutNotice';
import { PasskeySignIn } from './PasskeySignIn';
import { AccessContinue } from './AccessContinue';
import { PasswordField, TextField } from '../../lib/form/fields';
import { usePageTitle } from '../../lib/page-title';
import { useRoutePreload } from '../../lib/route-preload';
import { validateWith } from '../../lib/form/validate';
import { notify } from '../../lib/toast/notify';
import { login } from './api';
import { safeRedirect } from './redirect';

const validate = validateWith(loginSchema);

export function LoginPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const preloadRoute = useRoutePreload();
  usePageTitle('Sign in');

  const submit = async (values: LoginPayload) => {
    const destination = safeRedirect(search.get('redirect'));
    // The next page's code downloads while the password is checked, not after.
    preloadRoute(destination, { withShell: true });
    try {
      signIn(await login(values));
      preloadRoute(destination, { data: true });
      navigate(destination, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        notify.error('Invalid Credentials', 'Please check your email and password and try again.');
      } else if (error instanceof ApiError && error.status === 403) {
        // ACCESS_REQUIRED: passwords are refused, and the answer says which way in to use instead.
        notify.error('Password sign-in is off', error.message);
      } else {
        notify.error('Login Failed', 'An unexpected error occurred. Please try again.');
      }
    }
  };

  return (
    <Center mih="100dvh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={400}>
        <Form<LoginPayload>
          onSubmit={submit}
          validate={validate}
          initialValues={{ username: '', password: '', audience: APP_AUDIENCE }}
          render={({ handleSubmit, submitting }) => (
            <form onSubmit={handleSubmit} noValidate>
              <Stack>
                <div>
                  <Title order={1} size="h2" tabIndex={-1}>
                    Sign in
                  </Title>
                  <Text c="dimmed" size="sm">
                    Staff workspace
                  </Text>
                </div>
                <SignOutNotice />
                <AccessContinue />
                <TextField name="username" type="email" label="Email" autoComplete="username webauthn" autoFocus />
                <PasswordField name="password" label="Password" autoComplete="current-password" />
                <Field<string> name="audience">{({ input }) => <input {...input} type="hidden" />}</Field>
                <Button type="submit" loading={submitting} disabled={submitting} fullWidth>
                  Login
                </Button>
                <PasskeySignIn />
              </Stack>
            </form>
          )}
        />
      </Paper>
    </Center>
  );
}
