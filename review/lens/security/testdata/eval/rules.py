import ast


def apply(rule, request):
    value = eval(request.args["expr"])  # want "Code evaluated from a variable string"
    exec(rule.body, {"__builtins__": {}})  # want "exec\(\) runs"
    exec(f"x = {value}")  # want "exec"
    return value


# Near misses: none of these is reported.
def fine(model, text):
    model.eval()
    ast.literal_eval(text)
    eval("1 + 2")
    exec("import os")
    return "eval(text)"


def eval(expr):
    return expr
