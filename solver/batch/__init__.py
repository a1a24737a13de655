"""``capsa batch``: many hands from a file, solved durably and resumably.

``output`` (which lines are done; appending whole chunks with fsync), ``run`` (parsing lines,
solving chunks on an executor from :mod:`solver.executors`, the run loop and its summary).
"""

from solver.batch.output import Appender, LineSet, scan_lines
from solver.batch.run import (
                              DEFAULT_CHUNK,
                              BatchConfig,
                              ChunkOutput,
                              Summary,
                              check_config,
                              parse_line,
                              run_batch,
                              solve_lines,
)

__all__ = ["DEFAULT_CHUNK", "Appender", "BatchConfig", "ChunkOutput", "LineSet", "Summary",
           "check_config", "parse_line", "run_batch", "scan_lines", "solve_lines"]
