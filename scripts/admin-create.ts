import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ValidationError } from 'yup';
import { newPasswordField } from '../src/shared/schemas/password-policy';
import { createUserSchema } from '../src/shared/schemas/users';
import { Conflict } from '../src/worker/provider/errors/domain';
import { hashPassword } from '../src/worker/provider/auth/password';
import { inlineParams } from '../src/worker/provider/db/bulk';
import { createFirstAdmin, firstAdminStatements, type FirstAdmin } from '../src/worker/provider/db/first-admin';
import { EMAIL_TAKEN } from '../src/worker/provider/db/users';
import { d1Write, type D1Location } from './d1-cli';
import { localStateDir, withLocalEnv } from './local-env';
import { bin, run } from './run';

const USAGE = 'Usage: npm run admin:create -- --email <email> --first <first name> --surname <surname> [--remote]\n  The password comes from ADMIN_PASSWORD, or is asked for without echo.';

/** Why the admin cannot be made, for the person running the command. */
export class AdminCreateError extends Error {}

export interface AdminInput {
  email: string;
  firstName: string;
  surname: string;
  password: string;
}

/**
 * Checks the input with the shared schemas the provider uses for a new user, and the password
 * with the policy every new password meets; returns the values as the provider would store them.
 */
export const checkedAdmin = async (input: AdminInput): Promise<Omit<FirstAdmin, 'passwordHash'> & { password: string }> => {
  try {
    const user = await createUserSchema.validate({ ...input, role: 'admin' }, { abortEarly: false, stripUnknown: true });
    await newPasswordField().validate(input.password, { context: { email: user.email } });
    return { email: user.email, firstName: user.firstName, surname: user.surname, password: input.password };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const fields = error.inner.length ? error.inner.map((inner) => `${inner.path}: ${inner.message}`) : [error.message];
    throw new AdminCreateError(fields.join('\n'));
  }
};

/** The wrangler CLI's answer to a taken email is its SQLite error text. */
const isTakenEmail = (error: unknown) => error instanceof Error && /UNIQUE constraint failed: users\.email/.test(error.message);

/**
 * Makes the admin, hashed with the provider's own PBKDF2 code: through the local D1 binding, or
 * with the same statements inlined and run by `wrangler d1 execute` (`--remote`, or a local
 * database standing in for it).
 */
export const createAdmin = async (input: AdminInput, location: D1Location | 'binding') => {
  const { password, ...admin } = await checkedAdmin(input);
  const record = { ...admin, passwordHash: await hashPassword(password) };
  try {
    if (location === 'binding') await withLocalEnv((env) => createFirstAdmin(env.DB, record));
    else await d1Write(location, firstAdminStatements(record).map(inlineParams));
  } catch (error) {
    if (error instanceof Conflict || isTakenEmail(error)) throw new AdminCreateError(`${EMAIL_TAKEN.detail}: ${admin.email}`);
    throw error;
  }
  return admin;
};

/** Reads a line from the terminal without showing it. */
const hiddenPrompt = (question: string) =>
  new Promise<string>((resolve) => {
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    const prompt = createInterface({ input: process.stdin, output: silent, terminal: true });
    process.stdout.write(question);
    prompt.question('', (answer) => {
      prompt.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });

const readPassword = async () => {
  if (process.env.ADMIN_PASSWORD) return process.env.ADMIN_PASSWORD;
  if (!process.stdin.isTTY) throw new AdminCreateError('No terminal to ask for the password: set ADMIN_PASSWORD.');
  const password = await hiddenPrompt('Password for the new admin: ');
  if ((await hiddenPrompt('Type it again: ')) !== password) throw new AdminCreateError('The two passwords differ.');
  return password;
};

const FLAGS: Record<string, keyof Omit<AdminInput, 'password'>> = { '--email': 'email', '--first': 'firstName', '--surname': 'surname' };

const parseArgs = (args: string[]) => {
  const input: Partial<AdminInput> = {};
  let remote = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const field = FLAGS[arg];
    if (arg === '--remote') remote = true;
    else if (field && args[i + 1] !== undefined) input[field] = args[++i];
    else return null;
  }
  return input.email && input.firstName && input.surname ? { input: input as Omit<AdminInput, 'password'>, remote } : null;
};

// `npm run admin:create`: the first admin of a new deployment (docs/operations.md), or of the
// local database `npm start` uses (LOCAL_STATE_DIR), whose migrations are applied first.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.env.WRANGLER_SEND_METRICS ??= 'false';
  const parsed = parseArgs(process.argv.slice(2));
  if (!parsed) {
    console.error(USAGE);
    process.exit(2);
  }
  try {
    const password = await readPassword();
    // Checked before anything else runs, so a refused password costs no wrangler start.
    await checkedAdmin({ ...parsed.input, password });
    if (!parsed.remote) await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', localStateDir()]);
    const admin = await createAdmin({ ...parsed.input, password }, parsed.remote ? { remote: true } : 'binding');
    console.log(`Created the admin ${admin.firstName} ${admin.surname} <${admin.email}> in ${parsed.remote ? 'the deployed database' : `the local database (${localStateDir()})`}. Sign in with that email and password.`);
  } catch (error) {
    if (!(error instanceof AdminCreateError)) throw error;
    console.error(`No admin created: ${error.message}`);
    process.exitCode = 1;
  }
}
