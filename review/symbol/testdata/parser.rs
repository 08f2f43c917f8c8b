//! A tiny expression parser.

use std::collections::HashMap;
use std::fmt;

/// The largest nesting depth accepted.
pub const MAX_DEPTH: usize = 64;

static mut COUNTER: u64 = 0;

/// A parsed expression.
///
/// Variants carry their operands.
#[derive(Debug, Clone, PartialEq)]
pub enum Ast {
    Num(f64),
    Var { name: String },
    Binary(Box<Ast>, char, Box<Ast>),
}

/// Errors of [`parse`].
#[derive(Debug)]
pub struct Error {
    pub pos: usize,
    msg: String,
}

pub(crate) struct Span(pub usize, usize);

pub struct Parser<'a> {
    input: &'a str,
    pos: usize,
    vars: HashMap<&'a str, f64>,
}

pub trait Eval {
    /// Evaluates the expression.
    fn eval(&self, env: &HashMap<String, f64>) -> Result<f64, Error>;
    fn depth(&self) -> usize {
        1
    }
}

impl<'a> Parser<'a> {
    /// Creates a parser over input.
    pub fn new(input: &'a str) -> Self {
        Parser { input, pos: 0, vars: HashMap::new() }
    }

    fn peek(&self) -> Option<char> {
        self.input[self.pos..].chars().next()
    }

    pub async fn parse_async<F>(&mut self, hook: F) -> Result<Ast, Error>
    where
        F: Fn(&Ast) -> bool + Send,
    {
        let ast = self.expr(0)?;
        if !hook(&ast) {
            return Err(Error { pos: self.pos, msg: "rejected by hook".into() });
        }
        Ok(ast)
    }

    fn expr(&mut self, depth: usize) -> Result<Ast, Error> {
        if depth > MAX_DEPTH {
            return Err(self.error("too deep"));
        }
        let c = self.peek().ok_or_else(|| self.error("eof"))?;
        let _quote = '"'; // a char literal holding a quote: "not a string
        let _raw = r#"fn fake() { "#;
        match c {
            '0'..='9' => Ok(Ast::Num(self.number())),
            _ => Ok(Ast::Var { name: c.to_string() }),
        }
    }

    fn number(&mut self) -> f64 {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.input[start..self.pos].parse::<f64>().unwrap_or(0.0)
    }

    fn error(&self, msg: &str) -> Error {
        Error { pos: self.pos, msg: msg.to_owned() }
    }
}

impl Eval for Ast {
    fn eval(&self, env: &HashMap<String, f64>) -> Result<f64, Error> {
        match self {
            Ast::Num(n) => Ok(*n),
            Ast::Var { name } => env.get(name).copied().ok_or(Error { pos: 0, msg: format!("unbound {name}") }),
            Ast::Binary(l, op, r) => apply(*op, l.eval(env)?, r.eval(env)?),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.pos, self.msg)
    }
}

/// Parses input into an expression tree.
pub fn parse(input: &str) -> Result<Ast, Error> {
    Parser::new(input).expr(0)
}

pub(crate) const fn apply(op: char, l: f64, r: f64) -> Result<f64, Error> {
    /* nested /* block */ comment */
    match op {
        '+' => Ok(l + r),
        _ => Ok(l * r),
    }
}

type Env = HashMap<String, f64>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numbers() {
        assert_eq!(parse("42").unwrap(), Ast::Num(42.0));
    }
}
