function calc(req) {
  const total = eval(req.query.expr); // want "Code evaluated from a variable string"
  const fn = new Function('a', 'b', req.body.code); // want "new Function\(\) runs"
  const f2 = new Function(`return ${req.body.x}`); // want "new Function"
  eval('var x = ' + req.body.x); // want "eval\(\) runs"
  return [total, fn, f2];
}

// Near misses: none of these is reported.
function fine(model, req) {
  model.eval(req.body);
  eval('1 + 2');
  const add = new Function('a', 'b', 'return a + b');
  const s = "eval(req.body)";
  return [add, s];
}

const obj = {
  eval(x) { return x; },
};

module.exports = { calc, fine, obj };
