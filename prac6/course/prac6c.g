all
