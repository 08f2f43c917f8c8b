import yaml
from yaml import SafeLoader


def load(request, path):
    a = yaml.load(request.data)  # want "Unsafe YAML load"
    b = yaml.load(request.data, Loader=yaml.Loader)  # want "with yaml.Loader honours"
    c = yaml.unsafe_load(request.files["cfg"].read())  # want "yaml.unsafe_load honours"
    docs = list(yaml.load_all(open(path), yaml.UnsafeLoader))  # want "load_all"
    d = yaml.load(  # want "without a Loader"
        request.data,
    )
    return a, b, c, d, docs


# Near misses: none of these is reported.
def fine(request, path):
    a = yaml.safe_load(request.data)
    b = yaml.load(request.data, Loader=yaml.SafeLoader)
    c = yaml.load(request.data, Loader=SafeLoader)
    d = yaml.load(open(path), Loader=yaml.CSafeLoader)
    e = yaml.full_load(open(path))
    f = yaml.load(open(path), Loader=yaml.FullLoader)
    g = yaml.load(open(path), Loader=ProjectLoader)
    text = "yaml.load(x)"
    return a, b, c, d, e, f, g, text
