"""Training data and results: scoring runs, exporting datasets, reports and the main job.

Scores trajectory files with the rubric's reward schemes, exports SFT and RL
sets in the formats TRL and verl read, writes reports with plots, and runs the
end-to-end pipeline behind ``compoworld demo``. It imports the engine, world,
tasks and agents; it is a peer of ``serve``, ``adapters`` and ``devtools``,
never imported by them.
"""
