" Bao records (.bao): the filetype `bao`.
autocmd BufRead,BufNewFile *.bao setfiletype bao
