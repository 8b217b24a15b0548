// The shape of a parsed command line: the small subset of bash a learner types in a lab
// (quotes, $VAR, $(cmd), pipes, && / || / ;, &, redirections, heredocs, env assignments).

export type WordPart =
  | { kind: 'lit'; text: string; quoted: boolean }
  | { kind: 'var'; name: string; quoted: boolean }
  | { kind: 'cmd'; src: string; quoted: boolean };

export type Word = WordPart[];

export type Redirect =
  | { fd: 0 | 1 | 2; op: '>' | '>>' | '<'; target: Word }
  | { fd: 1 | 2; op: 'dup'; to: 1 | 2 }
  | { fd: 0; op: 'heredoc'; body: string; expand: boolean };

export interface SimpleCommand {
  assigns: { name: string; value: Word }[];
  words: Word[];
  redirects: Redirect[];
}

export interface Pipeline {
  commands: SimpleCommand[];
}

export interface AndOrList {
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
  background: boolean;
}

export type Script = AndOrList[];

export class ShellSyntaxError extends Error {}
