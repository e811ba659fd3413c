"""difftestlib: the parts of scripts/difftest.py, the differential tester.

  programs     the inputs: Program, configs, diagnostics, check units
  runner       running commands (Runner) and the progress line (Progress)
  program_test building, rewriting, running and judging one program
  cuda_test    the same for a CUDA program: ported (--port), no reference
  report       failure reports, the summary and the --json file

Dependencies go one way: program_test uses programs, cuda_test both; the
others stand alone.
"""
