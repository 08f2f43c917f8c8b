# Real shapes: a route serving a file named in the URL, a Tornado handler
# joining its path argument, an upload saved under its own name, and
# tar members extracted by name; near misses after.
import os
import tarfile

from flask import request, send_file


@app.route("/download/<taskid>/<target>/<path:filename>")
def download(taskid, target, filename):
    if ".." in target:
        return "bad"
    path = os.path.join(OUTPUT, target)  # want "os.path.join gets `target`, which comes from a URL parameter"
    return send_file(path)


class ComponentRequestHandler(tornado.web.RequestHandler):
    def get(self, path):
        parts = path.split("/")
        filename = "/".join(parts[1:])
        abspath = os.path.join(self.root, filename)  # want "comes from a URL parameter"
        with open(abspath, "rb") as f:
            self.write(f.read())


def upload():
    f = request.files["file"]
    name = f.filename
    f.save(os.path.join(UPLOADS, name))  # want "comes from the request"


def unpack(archive, location):
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            fn = member.name
            path = os.path.join(location, fn)  # want "an archive member's name"
            tar.extract(member, path)


@app.route("/files/<name>")
def safe(name):
    path = os.path.realpath(os.path.join(FILES, name))
    if os.path.commonpath([path, FILES]) != FILES:
        return "no"
    return send_file(path)


def plain(base, name):
    return os.path.join(base, name)


def safe_unpack(archive, location):
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            tar.extract(member, location, filter="data")
            print(os.path.join(location, "done"))
