"""The neural evaluators and what feeds them: the inputs, the nets, their weights files, the pruning net,
incremental evaluation of siblings, and pubeval as the fixed yardstick."""
