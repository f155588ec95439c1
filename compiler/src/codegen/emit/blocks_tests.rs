//! Tests of the blocks' code: repeated tests skipped, as `blocks.rs` emits them.

/// How many times the generated code of `source` calls `has_line`.
fn has_line_calls(source: &str) -> usize {
    let c = crate::compile::compiled(source);
    let code = crate::codegen::emit_game(&c.ir, None, &c.source, "t.gala").expect("code");
    super::super::advance_of(&code).matches("ops::has_line(").count()
}

#[test]
fn a_test_repeated_right_after_its_answer_is_skipped() {
    let game = |again: &str| {
        format!(
            "game g {{
                players a;
                enum Cell {{ Empty, X }}
                var board: [[Cell; 3]; 2] = [[Empty; 3]; 2];
                var n: int = 0;
                flow {{
                    choose a x in 0..2;
                    while !has_line(board, 3, X) {{ board[x][n % 3] = X; n += 1; }}
                    if {again} {{ n += 100; }}
                    outcome [n];
                }}
            }}"
        )
    };
    // The same test: asked once. Another (a different line length): asked too.
    assert_eq!(has_line_calls(&game("!has_line(board, 3, X)")), 1);
    assert_eq!(has_line_calls(&game("!has_line(board, 2, X)")), 2);
}

/// A loop's `unless` test after its `until` said no is run in place,
/// so that the `if` after the loop is not asked again: the `unless`
/// test is emitted twice (at the loop's head and after the `until`),
/// unless the `if` asks something else.
#[test]
fn a_test_repeated_past_another_test_is_skipped() {
    let game = |again: &str| {
        format!(
            "game g {{
                players a, b;
                enum Cell {{ Empty, X }}
                var board: [[Cell; 2]; 2] = [[Empty; 2]; 2];
                var n: int = 0;
                flow {{
                    take_turns(a) {{
                        choose player (r, c) in (0..2, 0..2) where board[r][c] == Empty;
                        board[r][c] = X;
                        n += 1;
                    }} unless count(board, Empty) == 0
                      until has_line(board, 2, X);
                    if {again} {{ n += 100; }}
                    outcome [n, 0];
                }}
            }}"
        )
    };
    let count_tests = |again: &str| {
        let c = crate::compile::compiled(&game(again));
        let code = crate::codegen::emit_game(&c.ir, None, &c.source, "t.gala").expect("code");
        // Counted on its own, or read from the pass that asked `has_line` (`scan`).
        let code = super::super::advance_of(&code);
        (code.matches("ops::count2d(").count(), code.matches("__scan.1,").count())
    };
    assert_eq!(count_tests("has_line(board, 2, X)"), (1, 1));
    assert_eq!(count_tests("has_line(board, 1, X)"), (1, 0));
}
