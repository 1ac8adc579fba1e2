; Folds of Bao records (.bao): a game, a variation, a comment over several lines.

(game) @fold
(variation) @fold
(comment) @fold
