// Lint for the service (src/, scripts/, test/) and the dashboard's source (web/src: React in the browser, with the
// rules of hooks); the rest of web/ (its build, dependencies and the generated API types) is not linted.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import stylistic from "@stylistic/eslint-plugin";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  { ignores: ["node_modules/**", "dist/**", "web/*", "!web/src", "web/src/api/schema.d.ts", "test-artifacts/**", "src/**/*.client.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    rules: {
      // Control characters are matched on purpose (input bounds, untrusted text).
      "no-control-regex": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // Formatting: `npm run format` applies these with --fix; `npm run lint` (in CI) reports them.
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    ignores: ["**/*.mjs"],
    plugins: { "@stylistic": stylistic },
    rules: {
      "@stylistic/quotes": ["error", "single", { avoidEscape: true, allowTemplateLiterals: "always" }],
      "@stylistic/semi": ["error", "always"],
      "@stylistic/comma-dangle": ["error", "always-multiline"],
      "@stylistic/no-trailing-spaces": "error",
      "@stylistic/eol-last": ["error", "always"],
      "@stylistic/no-multiple-empty-lines": ["error", { max: 1, maxEOF: 0, maxBOF: 0 }],
      "@stylistic/indent": ["error", 2, { SwitchCase: 1, flatTernaryExpressions: true, offsetTernaryExpressions: true, ignoredNodes: ["ConditionalExpression *", "TemplateLiteral *"] }],
      "@stylistic/max-len": ["error", { code: 200, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true, ignoreComments: false }],
      "@stylistic/object-curly-spacing": ["error", "always"],
      "@stylistic/arrow-parens": ["error", "always"],
      "@stylistic/brace-style": ["error", "1tbs", { allowSingleLine: true }],
      "@stylistic/keyword-spacing": "error",
      "@stylistic/space-infix-ops": "error",
      "@stylistic/comma-spacing": "error",
    },
  },
  {
    // The dashboard: browser globals, JSX, and React's rules of hooks.
    files: ["web/src/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
    languageOptions: {
      globals: globals.browser,
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
  },
  {
    files: ["**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
);
