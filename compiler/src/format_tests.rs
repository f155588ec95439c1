//! Tests of the formatter: one `check(input, expected)` per layout rule;
//! each also checks that the output is a fixed point.

use super::format;
use crate::span::FileId;

fn check(input: &str, expected: &str) {
    let out = format(FileId(0), input).unwrap_or_else(|d| panic!("does not format: {d:?}"));
    assert_eq!(out, expected, "formatted:\n{out}");
    let again = format(FileId(0), &out).unwrap_or_else(|d| panic!("output does not format: {d:?}"));
    assert_eq!(again, out, "not idempotent");
}

#[test]
fn statements_get_lines_and_blocks_indent() {
    check(
        "game g{players a,b;var x:int=0;flow{choose a m in 1..=3;if m==1{x+=1;}else{payoff a+=x;} end;}}",
        "game g {
    players a, b;
    var x: int = 0;
    flow {
        choose a m in 1..=3;
        if m == 1 {
            x += 1;
        } else {
            payoff a += x;
        }
        end;
    }
}
",
    );
}

#[test]
fn spacing_follows_the_tokens() {
    check(
        "game g { players a , b ; enum M{Bid ( int , int ),Liar}
fn f ( xs : list < list<int> > , p : [ player ] int ) -> int { return - xs [ 0 ] [ 1 ] + ! true . 0 ; }
flow { choose nature c in { 1 : 1 / 2 , 2 : 1/2 } ; let t = ( 1 , - c ) ; outcome [ a - - 1 , t . 0 ] ; } }",
        "game g {
    players a, b;
    enum M { Bid(int, int), Liar }
    fn f(xs: list<list<int>>, p: [player]int) -> int {
        return -xs[0][1] + !true.0;
    }
    flow {
        choose nature c in { 1: 1/2, 2: 1/2 };
        let t = (1, -c);
        outcome [a - -1, t.0];
    }
}
",
    );
}

#[test]
fn a_choose_pattern_is_not_a_call() {
    check(
        "game g { players a; flow { choose a (x, y) in (1..3, 1..3); choose a[0] (u, v) in (1..3, 1..3); \
         take_turns (a) { choose player m in 1..3; } until m == 1; } }",
        "game g {
    players a;
    flow {
        choose a (x, y) in (1..3, 1..3);
        choose a[0] (u, v) in (1..3, 1..3);
        take_turns(a) {
            choose player m in 1..3;
        } until m == 1;
    }
}
",
    );
}

#[test]
fn comments_stay_where_they_are() {
    check(
        "// head

game g { // the game
    players a;   // one player


    /* block */ var x: int = 0; // x
    var yy: int = 1; // y
    flow {
        // before
        outcome [x]; /* after */
        // last
    }
}
// tail
",
        "// head

game g { // the game
    players a; // one player

    /* block */
    var x: int = 0;  // x
    var yy: int = 1; // y
    flow {
        // before
        outcome [x]; /* after */
        // last
    }
}
// tail
",
    );
}

#[test]
fn line_breaks_inside_a_statement_are_kept_and_indented() {
    check(
        "game g { players a; flow { let xs = [
1,
      2
];
choose a m in 1..3
  where m > 1
        && m < f(2,
 3);
match m { Bid(q, f) => {} Liar => { end; }, } } }",
        "game g {
    players a;
    flow {
        let xs = [
            1,
            2
        ];
        choose a m in 1..3
            where m > 1
            && m < f(2,
                3);
        match m {
            Bid(q, f) => {}
            Liar => {
                end;
            },
        }
    }
}
",
    );
}

#[test]
fn else_joins_the_closing_brace_unless_a_comment_ends_the_line() {
    check(
        "game g { players a; flow { if true { end; }
else if false { end; } // c
else { end; } } }",
        "game g {
    players a;
    flow {
        if true {
            end;
        } else if false {
            end;
        } // c
        else {
            end;
        }
    }
}
",
    );
}

#[test]
fn files_that_do_not_parse_are_not_formatted() {
    let errors = format(FileId(0), "game g { players a; flow { let = 1; } }").expect_err("a syntax error");
    assert!(!errors.is_empty());
    let errors = format(FileId(0), "game g { players a; flow { end; } } /* open").expect_err("a lexical error");
    assert!(errors[0].message.contains("comment"), "{errors:?}");
}
