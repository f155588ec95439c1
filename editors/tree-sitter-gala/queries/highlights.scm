; Highlights for Gala, with the tree-sitter CLI's standard capture names.
; editors/vscode/syntaxes/gala.tmLanguage.json gives the same classes of
; tokens the matching TextMate scopes.
;
; Where two patterns capture one node, the later one wins (in the
; tree-sitter CLI, Neovim and Helix alike): the general patterns (names, keywords,
; operators) come first.

; ------------------------------------------------------------ general names

(identifier) @variable

; Capitalised names are enum variants by convention (`Fold`, `Liar`).
((identifier) @constructor
  (#match? @constructor "^[A-Z]"))

; ------------------------------------------------------------ keywords

[
  "game"
  "param"
  "const"
  "enum"
  "var"
  "fn"
  "flow"
  "let"
  "choose"
  "reveal"
  "payoff"
  "outcome"
  "end"
  "if"
  "then"
  "else"
  "while"
  "repeat"
  "until"
  "for"
  "in"
  "take_turns"
  "simultaneous"
  "match"
  "unless"
  "return"
  "where"
  "weight"
] @keyword

; Only here: `players` in an expression is (all_players).
(players_declaration "players" @keyword)

; ------------------------------------------------------------ operators and punctuation

[
  "="
  "+="
  "-="
  "*="
  "+"
  "-"
  "*"
  "/"
  "%"
  "=="
  "!="
  "<"
  "<="
  ">"
  ">="
  "&&"
  "||"
  "!"
  ".."
  "..="
  "->"
  "=>"
] @operator

["(" ")" "[" "]" "{" "}"] @punctuation.bracket

[";" "," ":" "::" "."] @punctuation.delimiter
; ------------------------------------------------------------ literals

(integer) @number
(card) @constant
(boolean) @constant.builtin
(string) @string
(comment) @comment

; ------------------------------------------------------------ declarations

(source_file name: (identifier) @module)

(enum_declaration name: (identifier) @type)
(enum_variant name: (identifier) @constructor)

(fn_declaration name: (identifier) @function)
(flow_declaration name: (identifier) @function)

(parameter name: (identifier) @variable.parameter)
(players_declaration name: (identifier) @variable)
(param_declaration name: (identifier) @constant)
(const_declaration name: (identifier) @constant)
(var_declaration name: (identifier) @variable)

; ------------------------------------------------------------ types

(type_identifier) @type
(primitive_type) @type.builtin
(per_player_type "player" @type.builtin)
(list_type "list" @type.builtin)
(bool_domain) @type.builtin
(list_type ["<" ">"] @punctuation.bracket)

; ------------------------------------------------------------ names in statements and expressions

(path_expression enum: (identifier) @type)
(path_expression variant: (identifier) @constructor)
(match_arm variant: (identifier) @constructor)

(call_expression function: (identifier) @function)

((call_expression function: (identifier) @function.builtin)
  (#any-of? @function.builtin
    "len" "contains" "count" "push" "remove" "sum" "sort" "combinations"
    "min" "max" "abs" "next" "index" "deck" "card" "rank" "suit" "deck52"
    "hand_rank" "deal_hands" "cells" "has_line"))

; A variant with fields, `Bid(2, 5)`, is written like a call.
((call_expression function: (identifier) @constructor)
  (#match? @constructor "^[A-Z]"))

; The tag of a revealed fact: `my_card` in `reveal first my_card(c);`.
(reveal_statement fact: (identifier) @label)

[
  (current_player)
  (opponent)
  (all_players)
  (nature)
  (all)
] @variable.builtin
