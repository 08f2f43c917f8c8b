import os  # want "Forbidden by policy.forbidden-paths: legacy/\\*\\*"
import yaml, pickle  # want "Forbidden by policy.forbidden-imports: pickle"
from pickle import loads  # want "forbidden-imports: pickle"
from requests.adapters import HTTPAdapter
from . import pickle as local_pickle
