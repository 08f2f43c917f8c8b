"""Routes.

    @app.route("/documented-only")
"""
import os

from flask import Flask

app = Flask(__name__)
os.environ["WRITTEN_NOT_READ"] = "1"


@app.route("/users/<id>")  # want "route /users/<id>"
def user(id):
    return os.environ.get("USER_API_URL")
