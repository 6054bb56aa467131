/**
 * The PowerShell cmdlets `act:` reads, as data: each one's parameters (which
 * are switches, which take a value, their aliases) and the order its
 * positional arguments bind in, and the built-in aliases of their names.
 * Listed only where every parameter is known (PowerShell 7, the FileSystem
 * provider's dynamic ones included, and the common parameters), since a
 * parameter may be written as any prefix that names it alone: a missing one
 * would make a prefix look unambiguous where PowerShell refuses it.
 */

export interface Parameter {
  /** The name as documented (`Path`); the canonical spelling is `-Path`. */
  readonly name: string;
  /** Other names PowerShell binds to it (`PSPath`, `LP`). */
  readonly aliases: readonly string[];
  /** The name and the aliases in lower case: what a spelling is matched against. */
  readonly names: readonly string[];
  /** A switch takes no value. */
  readonly switch: boolean;
  /** Its value names a file or directory (`./x` and `x` name the same one). */
  readonly path: boolean;
}

export interface Cmdlet {
  readonly name: string;
  /** In the order the canonical form writes them. */
  readonly parameters: readonly Parameter[];
  /** The parameters positional arguments bind to, first position first. */
  readonly positions: readonly string[];
  /** An alias the canonical form uses when at most the first positional parameter is bound (`cd dir`, which other rules read). */
  readonly short?: string;
}

/** `Name`, `-Name` (a switch, `!`), aliases after `/`, a path value after `@`: `Path@`, `LiteralPath@/PSPath/LP`, `Recurse!/s`. */
function parameters(spec: string): Parameter[] {
  return spec.split(' ').map((item) => {
    const [head = '', ...aliases] = item.split('/');
    const flag = head.at(-1);
    const name = flag === '!' || flag === '@' ? head.slice(0, -1) : head;
    return { name, aliases, names: [name, ...aliases].map((n) => n.toLowerCase()), switch: flag === '!', path: flag === '@' };
  });
}

const COMMON = ' Verbose!/vb Debug!/db ErrorAction/ea WarningAction/wa InformationAction/infa ProgressAction/proga ErrorVariable/ev WarningVariable/wv InformationVariable/iv OutVariable/ov OutBuffer/ob PipelineVariable/pv';
const LITERAL = 'LiteralPath@/PSPath/LP';

function cmdlet(name: string, spec: string, positions: readonly string[], short?: string): Cmdlet {
  return short === undefined ? { name, parameters: parameters(spec + COMMON), positions } : { name, parameters: parameters(spec + COMMON), positions, short };
}

export const CMDLETS: readonly Cmdlet[] = [
  cmdlet('Get-Content', `Path@ ${LITERAL} ReadCount TotalCount/First/Head Tail/Last Filter Include Exclude Force! Credential Delimiter Wait! Raw! Encoding AsByteStream! Stream`, ['Path']),
  cmdlet('Select-String', `Pattern Path@ ${LITERAL} InputObject SimpleMatch! CaseSensitive! Quiet! List! NoEmphasis! Include Exclude NotMatch! AllMatches! Encoding Context Raw! Culture`, ['Pattern', 'Path']),
  cmdlet('Select-Object', 'InputObject Property ExcludeProperty ExpandProperty Unique! CaseInsensitive! Last First Skip SkipLast Wait! Index SkipIndex', ['Property']),
  cmdlet('Get-ChildItem', `Path@ ${LITERAL} Filter Include Exclude Recurse!/s Depth Force! Name! Attributes FollowSymlink! Directory!/ad/d File!/af Hidden!/ah/h ReadOnly!/ar System!/as`, ['Path', 'Filter']),
  cmdlet('Set-Location', `Path@ ${LITERAL} PassThru! StackName`, ['Path'], 'cd'),
  cmdlet('Test-Path', `Path@ ${LITERAL} Filter Include Exclude PathType/Type IsValid! Credential OlderThan NewerThan`, ['Path']),
  cmdlet('Get-Item', `Path@ ${LITERAL} Filter Include Exclude Force! Credential Stream`, ['Path']),
];

/**
 * Built-in aliases, by lower-case name. Set-Location is written `cd DIR` when
 * only its path is bound, as the directory rule reads it (`cd DIR && tool`).
 * `foreach` is left out: it is a keyword where a statement starts. The last
 * names are of cmdlets whose parameters are not tabled: only the name is read.
 */
const ALIASES: Readonly<Record<string, string>> = {
  gc: 'Get-Content',
  cat: 'Get-Content',
  type: 'Get-Content',
  sls: 'Select-String',
  select: 'Select-Object',
  gci: 'Get-ChildItem',
  ls: 'Get-ChildItem',
  dir: 'Get-ChildItem',
  cd: 'Set-Location',
  sl: 'Set-Location',
  chdir: 'Set-Location',
  gi: 'Get-Item',
  ft: 'Format-Table',
  fl: 'Format-List',
  '%': 'ForEach-Object',
  '?': 'Where-Object',
  where: 'Where-Object',
  oh: 'Out-Host',
};

/** Every name above in lower case, to the cmdlet's documented name. */
export const CMDLET_NAMES: ReadonlyMap<string, string> = new Map([
  ...CMDLETS.map((c): [string, string] => [c.name.toLowerCase(), c.name]),
  ...['Format-Table', 'Format-List', 'ForEach-Object', 'Where-Object', 'Out-String', 'Out-Host'].map((n): [string, string] => [n.toLowerCase(), n]),
  ...Object.entries(ALIASES),
]);

/** The table's entry for a documented name. */
export const CMDLET_TABLE: ReadonlyMap<string, Cmdlet> = new Map(CMDLETS.map((c) => [c.name, c]));
