def run(items):
    # TODO handle empty batches  want "TODO added"
    s = "# FIXME: not a comment"
    """
    TODO: docstrings are not comments
    """
    return [i for i in items]  # todo in lower case is prose
