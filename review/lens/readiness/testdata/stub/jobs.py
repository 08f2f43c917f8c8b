import abc


def run_job(name):
    raise NotImplementedError  # want "Stub left in run_job: raise NotImplementedError"


def schedule(name):
    pass  # want "Stub left in schedule: an empty body"


def cancel(name):
    # TODO: cancel the running job
    pass  # want "Stub left in cancel: a body with only a TODO"


class Worker:
    def start(self):
        raise NotImplementedError("TODO: start the worker")  # want "Stub left in start"

    # Near misses: the abstract-method idiom, a docstring-only hook, a
    # private placeholder, a function that does something.
    def stop(self):
        raise NotImplementedError

    def drain(self):
        raise NotImplementedError("subclasses must drain")

    @abc.abstractmethod
    def pause(self):
        raise NotImplementedError("TODO")


def on_event(event):
    """Called for every event; override to react."""
    pass


def _reserved():
    pass


def status(name):
    return name
