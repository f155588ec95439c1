/**
 * Tree-sitter grammar for Gala, the game language of galac, for editors
 * (highlighting, folding, structural selection).
 *
 * The truth is compiler/src/grammar.lalrpop and compiler/src/lexer.rs; this
 * file follows their rules one for one (the comments give the names of the
 * rules there; the one departure is in `field_expression`), so that what
 * galac parses has no error node here and most of what it rejects has one
 * (editors/check.sh tests both on the repository's games). docs/language.md
 * is the reference.
 *
 * Binary operators are written as one hidden rule per precedence level, as in
 * grammar.lalrpop (not with `prec`), so that comparisons stay
 * non-associative (`a < b < c` is an error) and only the forms galac reads
 * parse. Each level's node is aliased to `binary_expression`.
 */

/** `rule, rule, ...` with an optional trailing comma, possibly empty (lalrpop `Comma<T>`). */
function commaSep(rule) {
  return optional(commaSep1(rule));
}

/** At least one `rule`, comma-separated, with an optional trailing comma (lalrpop `Comma1<T>`). */
function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)), optional(','));
}

/** A binary operator level: `left op right`, with the operator in a field. */
function binary(left, operators, right) {
  const operator = operators.length === 1 ? operators[0] : choice(...operators);
  return seq(field('left', left), field('operator', operator), field('right', right));
}

/** The cards whose rank is a letter (`Ts` to `Ac`): they look like names. */
const LETTER_CARDS = ['T', 'J', 'Q', 'K', 'A'].flatMap(rank => ['s', 'h', 'd', 'c'].map(suit => rank + suit));

module.exports = grammar({
  name: 'gala',

  // Keywords are lexed as identifiers first and then looked up, so that
  // `players_left` is one name and not `players` followed by `_left`.
  word: $ => $.identifier,

  extras: $ => [/\s/, $.comment],

  // The keywords of docs/language.md "Lexical structure", which can never be
  // names, even where a name is expected (as galac's lexer does).
  reserved: {
    global: _ => [
      'game', 'players', 'param', 'const', 'enum', 'var', 'fn', 'flow', 'let', 'if', 'then',
      'else', 'while', 'repeat', 'until', 'for', 'in', 'take_turns', 'simultaneous', 'match',
      'unless', 'choose', 'nature', 'reveal', 'all', 'payoff', 'outcome', 'end', 'return',
      'where', 'weight', 'true', 'false', 'int', 'bool', 'player', 'list', 'opponent',
      // Cards too are never names.
      ...LETTER_CARDS,
    ],
  },

  supertypes: $ => [$._declaration, $._statement, $._expression, $._type, $._pattern],

  rules: {
    // Program
    source_file: $ => seq('game', field('name', $.identifier), '{', repeat($._declaration), '}'),

    // ------------------------------------------------------------ declarations (Item)

    _declaration: $ => choice(
      $.players_declaration,
      $.param_declaration,
      $.const_declaration,
      $.enum_declaration,
      $.var_declaration,
      $.fn_declaration,
      $.flow_declaration,
    ),

    players_declaration: $ => seq('players', commaSep1(field('name', $.identifier)), ';'),

    // `param ranks: int = 8;` or a default in `--param` notation: `param board: list<card> = "Td9d6h";`,
    // either with a condition its values must meet: `param stack: int = 900 where stack > 0;`
    param_declaration: $ => seq(
      'param', field('name', $.identifier), ':', field('type', $._type), '=',
      field('default', choice($._expression, $.string)),
      optional(seq('where', field('condition', $._expression))), ';',
    ),

    const_declaration: $ => seq(
      'const', field('name', $.identifier), optional(seq(':', field('type', $._type))), '=',
      field('value', $._expression), ';',
    ),

    enum_declaration: $ => seq(
      'enum', field('name', $.identifier), '{', commaSep(field('variant', $.enum_variant)), '}',
    ),

    // `Liar` or `Bid(int, int)` (VariantDecl).
    enum_variant: $ => seq(
      field('name', $.identifier),
      optional(seq('(', commaSep(field('field', $._type)), ')')),
    ),

    var_declaration: $ => seq(
      'var', field('name', $.identifier), ':', field('type', $._type), '=', field('value', $._expression), ';',
    ),

    fn_declaration: $ => seq(
      'fn', field('name', $.identifier), field('parameters', $.parameters), '->',
      field('return_type', $._type), field('body', $.block),
    ),

    // A named flow `flow deal(p: player) { ... }`, or the main flow `flow { ... }`.
    flow_declaration: $ => seq(
      'flow', optional(seq(field('name', $.identifier), field('parameters', $.parameters))),
      field('body', $.block),
    ),

    parameters: $ => seq('(', commaSep($.parameter), ')'),

    // ParamBinding
    parameter: $ => seq(field('name', $.identifier), ':', field('type', $._type)),

    // ------------------------------------------------------------ types (TypeKind)

    _type: $ => choice(
      $.primitive_type,
      // An enum, or a builtin type that is not a keyword (`card`, `range`).
      alias($.identifier, $.type_identifier),
      $.tuple_type,
      $.array_type,
      $.per_player_type,
      $.list_type,
    ),

    primitive_type: _ => choice('int', 'bool', 'player'),

    tuple_type: $ => seq('(', $._type, ',', commaSep($._type), ')'),

    array_type: $ => seq('[', field('element', $._type), ';', field('length', $._expression), ']'),

    per_player_type: $ => seq('[', 'player', ']', field('element', $._type)),

    list_type: $ => seq('list', '<', field('element', $._type), '>'),

    // ------------------------------------------------------------ statements (Stmt)

    block: $ => seq('{', repeat($._statement), '}'),

    _statement: $ => choice(
      $.let_statement,
      $.assignment_statement,
      $.expression_statement,
      $.choose_statement,
      $.reveal_statement,
      $.payoff_statement,
      $.outcome_statement,
      $.end_statement,
      $.if_statement,
      $.while_statement,
      $.repeat_statement,
      $.for_statement,
      $.take_turns_statement,
      $.return_statement,
      $.simultaneous_statement,
      $.match_statement,
    ),

    let_statement: $ => seq(
      'let', field('name', $.identifier), optional(seq(':', field('type', $._type))), '=',
      field('value', $._expression), ';',
    ),

    assignment_statement: $ => seq(
      field('target', $._postfix), field('operator', choice('=', '+=', '-=', '*=')),
      field('value', $._expression), ';',
    ),

    // A flow call `deal(first);` (galac reads any postfix expression here and
    // the checker rejects what is not a flow call).
    expression_statement: $ => seq($._postfix, ';'),

    // `choose P x in D where C;`, `choose nature x in D weight W;`,
    // `choose nature x in { 0: 1/3, 1: 2/3 };`
    choose_statement: $ => seq(
      'choose', field('chooser', choice($.nature, $._actor)), field('pattern', $._pattern), 'in',
      choice(
        seq(
          field('domain', $._expression),
          optional(seq('where', field('filter', $._expression))),
          optional(seq('weight', field('weight', $._expression))),
        ),
        field('domain', $.probability_table),
      ),
      ';',
    ),

    nature: _ => 'nature',

    probability_table: $ => seq('{', commaSep($.probability_entry), '}'),

    probability_entry: $ => seq(field('outcome', $._expression), ':', field('probability', $.probability)),

    // ProbLit: `1` or `1/3`.
    probability: $ => seq($.integer, optional(seq('/', $.integer))),

    // `reveal first my_card(c);`, `reveal all winner;`
    reveal_statement: $ => seq(
      'reveal', field('receiver', choice($.all, $._actor)), field('fact', $.identifier),
      optional(field('arguments', $.arguments)), ';',
    ),

    all: _ => 'all',

    payoff_statement: $ => seq(
      'payoff', field('receiver', $._expression), field('operator', choice('+=', '-=')),
      field('amount', $._expression), ';',
    ),

    outcome_statement: $ => seq('outcome', field('payoffs', $._expression), ';'),

    end_statement: _ => seq('end', ';'),

    // IfStmt: `else if` nests an if statement.
    if_statement: $ => seq(
      'if', field('condition', $._expression), field('consequence', $.block),
      optional(seq('else', field('alternative', choice($.block, $.if_statement)))),
    ),

    while_statement: $ => seq('while', field('condition', $._expression), field('body', $.block)),

    repeat_statement: $ => seq('repeat', field('body', $.block), 'until', field('condition', $._expression), ';'),

    for_statement: $ => seq(
      'for', field('pattern', $._pattern), 'in', field('domain', $._expression), field('body', $.block),
    ),

    take_turns_statement: $ => seq(
      'take_turns', '(', field('start', $._expression), ')', field('body', $.block),
      optional(seq('unless', field('unless', $._expression))),
      optional(seq('until', field('until', $._expression))),
      ';',
    ),

    return_statement: $ => seq('return', optional(field('value', $._expression)), ';'),

    simultaneous_statement: $ => seq('simultaneous', field('body', $.block)),

    match_statement: $ => seq('match', field('value', $._expression), '{', repeat($.match_arm), '}'),

    // `Bid(q, f) => { ... }`, `Call::Liar => { ... }`, `_ => { ... }`, a comma after the block allowed.
    match_arm: $ => seq(
      field('variant', choice($.identifier, $.path_expression)),
      optional(seq('(', commaSep(field('field', $.identifier)), ')')),
      '=>', field('body', $.block), optional(','),
    ),

    // ActorExpr: the chooser or receiver, written bare only as a name,
    // `player`, `opponent` or an indexed actor; anything else in parentheses.
    _actor: $ => choice(
      $.identifier,
      $.current_player,
      $.opponent,
      $.parenthesized_expression,
      alias($.actor_index, $.index_expression),
    ),

    actor_index: $ => seq(field('value', $._actor), '[', field('index', $._expression), ']'),

    // Pattern: a name (`_` for none) or a tuple of patterns.
    _pattern: $ => choice($.identifier, $.tuple_pattern),

    tuple_pattern: $ => seq('(', $._pattern, ',', commaSep($._pattern), ')'),

    // ------------------------------------------------------------ expressions (Expr)

    _expression: $ => choice($.conditional_expression, $._or_level),

    conditional_expression: $ => seq(
      'if', field('condition', $._expression), 'then', field('consequence', $._expression),
      'else', field('alternative', $._expression),
    ),

    _or_level: $ => choice(alias($.or_expression, $.binary_expression), $._and_level),
    or_expression: $ => binary($._or_level, ['||'], $._and_level),

    _and_level: $ => choice(alias($.and_expression, $.binary_expression), $._comparison_level),
    and_expression: $ => binary($._and_level, ['&&'], $._comparison_level),

    // Non-associative: both sides are one level down.
    _comparison_level: $ => choice(alias($.comparison_expression, $.binary_expression), $._range_level),
    comparison_expression: $ => binary($._range_level, ['==', '!=', '<', '<=', '>', '>='], $._range_level),

    _range_level: $ => choice($.range_expression, $._sum_level),
    range_expression: $ => seq(
      field('start', $._sum_level), field('operator', choice('..', '..=')), field('end', $._sum_level),
    ),

    _sum_level: $ => choice(alias($.sum_expression, $.binary_expression), $._product_level),
    sum_expression: $ => binary($._sum_level, ['+', '-'], $._product_level),

    _product_level: $ => choice(alias($.product_expression, $.binary_expression), $._unary_level),
    product_expression: $ => binary($._product_level, ['*', '/', '%'], $._unary_level),

    _unary_level: $ => choice($.unary_expression, $._postfix),
    unary_expression: $ => seq(field('operator', choice('-', '!')), field('operand', $._unary_level)),

    _postfix: $ => choice($.index_expression, $.field_expression, $.call_expression, $._atom),

    index_expression: $ => seq(field('value', $._postfix), '[', field('index', $._expression), ']'),

    // A tuple field: `hands.0`. The one departure from grammar.lalrpop: the
    // value is not an integer literal, so that a decimal `1.5` (which galac's
    // lexer rejects) is an error here too rather than field `5` of `1`; an
    // integer has no fields anyway.
    field_expression: $ => seq(
      field('value', choice($.index_expression, $.field_expression, $.call_expression, $._atom_not_integer)),
      '.', field('field', $.integer),
    ),

    call_expression: $ => seq(field('function', $.identifier), field('arguments', $.arguments)),

    arguments: $ => seq('(', commaSep($._expression), ')'),

    _atom: $ => choice($.integer, $._atom_not_integer),

    _atom_not_integer: $ => choice(
      $.card,
      $.boolean,
      $.identifier,
      $.path_expression,
      $.all_players,
      $.current_player,
      $.opponent,
      $.bool_domain,
      $.parenthesized_expression,
      $.tuple_expression,
      $.list_expression,
      $.repeat_expression,
    ),

    // An enum variant with its enum: `Move::Bet`.
    path_expression: $ => seq(field('enum', $.identifier), '::', field('variant', $.identifier)),

    // `players`: every player in turn order.
    all_players: _ => 'players',

    // `player` and `opponent` inside take_turns.
    current_player: _ => 'player',
    opponent: _ => 'opponent',

    // `bool` as a domain: false, then true.
    bool_domain: _ => 'bool',

    parenthesized_expression: $ => seq('(', $._expression, ')'),

    tuple_expression: $ => seq('(', $._expression, ',', commaSep($._expression), ')'),

    list_expression: $ => seq('[', commaSep($._expression), ']'),

    // `[Empty; size]`, `[0; players]`.
    repeat_expression: $ => seq('[', field('value', $._expression), ';', field('count', $._expression), ']'),

    // ------------------------------------------------------------ tokens (lexer.rs)

    boolean: _ => choice('true', 'false'),

    integer: _ => /[0-9][0-9_]*/,

    // A card of the standard deck: a rank `23456789TJQKA` and a suit `shdc`.
    // The twenty that look like names (`Qc`, `Ah`) are keywords of the word
    // rule, so that `Qc` is a card but `Qcount` a name, as in lexer.rs.
    card: _ => choice(
      /[2-9][shdc]/,
      ...LETTER_CARDS,
    ),

    // Text: only a param's default.
    string: _ => /"[^"\n]*"/,

    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,

    // `// line` and `/* block */` (block comments do not nest).
    comment: _ => token(choice(
      seq('//', /[^\n]*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
    )),
  },
});
