import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = './src/client/features';
const features = readdirSync(FEATURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The house's layers (README "Layout"): a feature uses only itself, the client's lib/ and shared/;
 * lib/ sits under the features and app/; shared/ is used by both sides and uses neither; the
 * Worker never reaches into the client; the embedded provider keeps to itself.
 */
const zones = [
  ...features.map((name) => ({
    target: `${FEATURES}/${name}`,
    from: FEATURES,
    except: [`./${name}`],
    message: `A feature imports only itself, src/client/lib and src/shared: move what ${name}/ shares with another feature to lib/ or shared/.`,
  })),
  {
    target: FEATURES,
    from: ['./src/client/app', './src/client/main.tsx', './src/worker'],
    message: 'A feature imports only itself, src/client/lib and src/shared (app/ hands features what they need, e.g. through context).',
  },
  {
    target: './src/client/lib',
    from: [FEATURES, './src/client/app', './src/client/main.tsx', './src/worker'],
    message: 'lib/ is shared by the features and app/ and imports neither.',
  },
  {
    target: './src/shared',
    from: ['./src/client', './src/worker'],
    message: 'src/shared is used by the client and the Worker and imports from neither.',
  },
  {
    target: './src/worker',
    from: './src/client',
    message: 'The Worker does not import client code.',
  },
  {
    target: './src/worker/provider',
    from: './src/worker',
    except: ['./provider'],
    message: 'The embedded provider keeps to itself (it stands in for an upstream API): give it its own types.',
  },
  {
    target: './src/worker/*.ts',
    from: './src/worker/provider',
    except: ['./index.ts'],
    message: "The rest of the Worker uses only what the provider's index.ts exports.",
  },
  {
    target: './src/worker/provider/db',
    from: ['./src/worker/provider/http', './src/worker/provider/auth', './src/worker/provider/routes'],
    message: 'db/ returns data or throws domain errors (errors/domain.ts); it knows no HTTP and no tokens.',
  },
  {
    target: './src/worker/provider/auth',
    from: ['./src/worker/provider/http', './src/worker/provider/routes', './src/worker/provider/db'],
    message: 'auth/ is passwords and tokens only: no HTTP, no SQL (the limiter lives in db/login-attempts.ts).',
  },
];

/** Scripts run the provider's data code directly (seeding, restore, first admin), never its HTTP layer. */
const scriptZones = [
  {
    target: './scripts',
    from: ['./src/worker/provider/http', './src/worker/provider/routes'],
    message: 'A script uses db/, auth/ and shared code, not the HTTP layer.',
  },
  {
    target: './scripts',
    from: './src/client',
    // A browser benchmark signs a page in through the client's own storage key.
    except: ['./lib/constants.ts'],
    message: "A script does not run client code; the client's constants are all it may read.",
  },
];

// no-cycle reads the imported files too, so they need the TypeScript parser.
const importSettings = {
  'import-x/extensions': ['.ts', '.tsx', '.js'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.wrangler', 'test-results', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['scripts/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: scriptZones }] },
  },
  {
    files: ['scripts/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);
