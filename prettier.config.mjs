// The formatter, set to the style the code is written in: tabs, single quotes, semicolons,
// trailing commas, `x => …` without parentheses. The width is wide because the code keeps a
// statement on one line where it reads as one; 250 changed the fewest lines of the candidates
// measured. `npm run format` writes, `npm run format:check` checks (part of `npm test`).
export default {
	useTabs: true,
	tabWidth: 4,
	printWidth: 250,
	singleQuote: true,
	semi: true,
	trailingComma: 'all',
	arrowParens: 'avoid',
	bracketSpacing: true,
	endOfLine: 'lf',
};
