module github.com/reviewls/reviewls

go 1.26.8
