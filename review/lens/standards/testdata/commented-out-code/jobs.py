import logging

log = logging.getLogger(__name__)


def run(jobs):
    # for job in jobs:  # want "Commented-out code"
    #     if job.ready:
    #         job.start()
    #
    #     log.info("started %s", job)
    return len(jobs)


# Near misses: none of these is reported.


def plan(jobs):
    # Jobs are started in order of priority; the ones that are not ready
    # yet are skipped and retried by the scheduler on its next tick, which
    # keeps the queue moving.
    # e.g.:
    # plan([job1, job2])
    # plan([])
    # plan(None)
    return sorted(jobs)


# TODO: return early if there is nothing to plan.
# noqa: E501
# type: ignore
