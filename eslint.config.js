import { configApp } from '@adonisjs/eslint-config'

export default configApp(
  { name: 'Project ignores', ignores: ['tmp/**', 'storage/**', 'app/*/assets/**'] },
  {
    name: 'Project rules',
    files: ['**/*.ts'],
    rules: {
      // A leading underscore marks a value that is destructured or iterated only to be left out.
      '@typescript-eslint/naming-convention': [
        'error',
        {
          selector: 'variable',
          format: ['camelCase', 'UPPER_CASE', 'PascalCase'],
          leadingUnderscore: 'allow',
        },
        { selector: 'typeLike', format: ['PascalCase'] },
        { selector: 'class', format: ['PascalCase'] },
        {
          selector: 'interface',
          format: ['PascalCase'],
          custom: { regex: '^I[A-Z]', match: false },
        },
      ],
    },
  },
  {
    // `(await client.get(...)).body()` is how a test reads a response in one line.
    name: 'Tests',
    files: ['tests/**/*.ts', 'benchmarks/**/*.ts'],
    rules: { '@unicorn/no-await-expression-member': 'off' },
  }
)
