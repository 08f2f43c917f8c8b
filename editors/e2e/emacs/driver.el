;;; driver.el --- real Emacs + Eglot drives `reviewls serve' on the e2e fixture  -*- lexical-binding: t -*-
;;
;; run.sh starts it as
;;   timeout 120 emacs -Q --batch -l editors/e2e/emacs/driver.el </dev/null
;; with
;;   E2E_REVIEWLS  the server binary (started as: E2E_REVIEWLS serve)
;;   E2E_REPO      the fixture repository built by ../fixture.sh (project root)
;;   E2E_EXPECTED  ../expected.json
;;   E2E_REPORT    where to write the JSON report {checks: [{name, ok, detail, ms}], ...};
;;                 the Eglot events log and the server's stderr go beside it
;;   E2E_ELPA      Debian's elpa dir holding eglot (default /usr/share/emacs/site-lisp/elpa)
;;   E2E_WAIT_MS (20000)  E2E_SETTLE_MS (500)  per-wait deadline / quiet period after publications
;;
;; Eglot (Debian's elpa-eglot 1.9 on Emacs 28.2) visits every file of expected.json in a
;; stub major mode and connects one server for the repository.  Checks, in order:
;;   start          Eglot initializes the server for the VC project of the repository
;;   diagnostics    the raw publishDiagnostics are exactly expected.json's (file, line,
;;                  severity, code), in every publication of the session, nothing elsewhere
;;   flymake        Flymake in every visited buffer shows the same lines and types
;;   code-action-explain  eglot-code-actions at the explain target offers reviewls.explain;
;;                  eglot-execute-command runs it; the explanation file exists
;;   bad-command    reviewls.investigate on board-99 is a JSON-RPC error naming board-99 and
;;                  reviewls.board still answers with the expected board
;;   server-requests  every server->client request was answered (window/showDocument included)
;;   shutdown       our own shutdown + exit (eglot-shutdown would SIGKILL): exit status 0
;;   secret         the secret value is in no byte the server wrote (stdout or stderr)
;; Any Lisp error fails the check it happened in; Emacs always ends with kill-emacs:
;; 0 when every check passed, else 1.

(require 'cl-lib)
(require 'subr-x)
(require 'json)
(require 'package)
;; Debian's site-start adds its elpa dir; -Q skips it, so add it here.
(add-to-list 'package-directory-list
             (or (getenv "E2E_ELPA") "/usr/share/emacs/site-lisp/elpa") t)
(condition-case err
    (progn (package-initialize) (require 'eglot) (require 'flymake))
  (error
   (let ((why (format "server did not start: Eglot did not load: %s" (error-message-string err))))
     (ignore-errors
       (with-temp-file (or (getenv "E2E_REPORT") "emacs-report.json")
         (insert (json-encode (list :checks (vector (list :name "start" :ok :json-false :detail why :ms 0)))))))
     (message "FAIL start: %s" why)
     (kill-emacs 1))))

;;;; Environment, timing, report

(defvar e2e-t0 (float-time))
(defun e2e-ms () (round (* 1000 (- (float-time) e2e-t0))))
(defun e2e-env (k &optional d)
  (let ((v (getenv k))) (if (or (null v) (string= v "")) d v)))
(defun e2e-env-required (k)
  (or (e2e-env k) (error "%s is not set" k)))

(defvar e2e-report-file (e2e-env "E2E_REPORT" "emacs-report.json"))
(defvar e2e-wait-ms (string-to-number (e2e-env "E2E_WAIT_MS" "20000")))
(defvar e2e-settle-ms (string-to-number (e2e-env "E2E_SETTLE_MS" "500")))

(defvar e2e-checks nil "Finished checks, newest first: plists (:name :ok :detail :ms).")
(defvar e2e-info nil "Extra report fields (plist).")
(defun e2e-put (k v) (setq e2e-info (plist-put e2e-info k v)))

(define-error 'e2e-fail "check failed")
(defun e2e-fail (fmt &rest args)
  "Fail the running check with a message made from FMT and ARGS."
  (signal 'e2e-fail (list (apply #'format fmt args))))

(defun e2e-check (name fn)
  "Run FN as check NAME; FN's value (a string) is the detail.
Return non-nil if it passed."
  (let ((start (e2e-ms)) ok detail)
    (condition-case err
        (setq detail (funcall fn) ok t)
      (e2e-fail (setq detail (cadr err)))
      (error (setq detail (format "lisp error: %s" (error-message-string err)))))
    (push (list :name name :ok (if ok t :json-false)
                :detail (if (stringp detail) detail "")
                :ms (- (e2e-ms) start))
          e2e-checks)
    (message "%s %s%s" (if ok "PASS" "FAIL") name
             (if (and (stringp detail) (not (string-empty-p detail))) (concat ": " detail) ""))
    ok))

(defun e2e-skip (names why)
  (dolist (n names)
    (push (list :name n :ok :json-false :detail (format "not run: %s" why) :ms 0) e2e-checks)
    (message "FAIL %s: not run: %s" n why)))

(defun e2e-wait (ms pred)
  "Pump process output until PRED is non-nil or MS elapse.
Return PRED's last value."
  (let ((deadline (+ (float-time) (/ ms 1000.0))) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    v))

(defun e2e-vec (list) (vconcat list))

;;;; Recording what goes over the wire
;; Hooks run inside process filters, where an error would end batch Emacs:
;; they never signal, they record their errors instead.

(defvar e2e-hook-errors nil)
(defmacro e2e-safely (&rest body)
  `(condition-case err (progn ,@body)
     (error (push (format "%S" err) e2e-hook-errors) nil)))

(defvar e2e-raw-out nil "Raw text the server wrote on stdout, newest chunk first.")
(advice-add 'jsonrpc--process-filter :before
            (lambda (_proc string) (e2e-safely (push string e2e-raw-out))))

(defvar e2e-server-requests nil "Requests from the server: plists (:id :method :t_ms).")
(defvar e2e-answered nil "Ids of server requests Eglot answered: (id . error-or-nil).")
(defvar e2e-did-review nil "Params of the last reviewls/didReview.")
(defvar e2e-did-review-count 0)
(advice-add 'jsonrpc-connection-receive :before
            (lambda (_conn message)
              (e2e-safely
               (let ((method (plist-get message :method)) (id (plist-get message :id)))
                 (cond ((and method id)
                        (push (list :id id :method method :t_ms (e2e-ms)) e2e-server-requests))
                       ((equal method "reviewls/didReview")
                        (setq e2e-did-review (plist-get message :params))
                        (cl-incf e2e-did-review-count)))))))

(defvar e2e-process-ends nil "How server processes ended: (name status exit-code t_ms).")
(advice-add 'jsonrpc--process-sentinel :before
            (lambda (proc _change)
              (e2e-safely
               (unless (process-live-p proc)
                 (push (list (process-name proc) (process-status proc) (process-exit-status proc) (e2e-ms))
                       e2e-process-ends)))))

(defvar e2e-did-open nil "didOpen sent: (uri . languageId).")
(advice-add 'jsonrpc-connection-send :before
            (lambda (_conn &rest args)
              (e2e-safely
               (let ((method (plist-get args :method)))
                 (cond ((and (null method) (plist-member args :id))
                        (push (cons (plist-get args :id) (plist-get args :error)) e2e-answered))
                       ((memq method '(:textDocument/didOpen textDocument/didOpen))
                        (let ((doc (plist-get (plist-get args :params) :textDocument)))
                          (push (cons (plist-get doc :uri) (plist-get doc :languageId)) e2e-did-open))))))))

;; Raw publishDiagnostics, before Eglot hands them to Flymake.
(defvar e2e-publications nil "Every publication: plists (:t_ms :uri :diagnostics), newest first.")
(defvar e2e-latest (make-hash-table :test #'equal) "uri -> diagnostics vector of its last publication.")
(defvar e2e-last-pub-ms nil)
(cl-defmethod eglot-handle-notification :before
  (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
  (e2e-safely
   (push (list :t_ms (e2e-ms) :uri uri :diagnostics diagnostics) e2e-publications)
   (puthash uri diagnostics e2e-latest)
   (setq e2e-last-pub-ms (e2e-ms))))

;;;; Major modes and language ids
;; Emacs 28 has no Go/TypeScript mode; stub modes are enough for Eglot.  Eglot 1.9 keeps
;; one languageId per server, so didOpen's languageId is set per buffer here instead.

(define-derived-mode e2e-go-mode prog-mode "Go")
(define-derived-mode e2e-python-mode prog-mode "Python")
(define-derived-mode e2e-typescript-mode prog-mode "TypeScript")
(define-derived-mode e2e-gomod-mode prog-mode "go.mod")
(define-derived-mode e2e-text-mode text-mode "Text")
(defconst e2e-modes
  '(e2e-go-mode e2e-python-mode e2e-typescript-mode e2e-gomod-mode e2e-text-mode))

(defvar-local e2e-language-id nil)
(advice-add 'eglot--TextDocumentItem :filter-return
            (lambda (item)
              (if e2e-language-id (plist-put item :languageId e2e-language-id) item)))

(defun e2e-mode-for (file)
  "(MODE . LANGUAGE-ID) for FILE."
  (cond ((string= (file-name-nondirectory file) "go.mod") '(e2e-gomod-mode . "go.mod"))
        ((string-suffix-p ".go" file) '(e2e-go-mode . "go"))
        ((string-suffix-p ".py" file) '(e2e-python-mode . "python"))
        ((string-suffix-p ".ts" file) '(e2e-typescript-mode . "typescript"))
        (t '(e2e-text-mode . "plaintext"))))

;;;; Expectations

(defvar e2e-expected nil)
(defvar e2e-repo nil "Fixture root, a true name with a trailing slash.")
(defvar e2e-buffers nil "(rel . buffer) of every visited file.")

(defun e2e-x (&rest keys)
  "Walk `e2e-expected' along KEYS."
  (let ((v e2e-expected)) (dolist (k keys v) (setq v (plist-get v k)))))

(defun e2e-rel (uri)
  "Repository-relative path of URI (the URI itself when outside the repository)."
  (let ((p (file-truename (eglot--uri-to-path uri))))
    (if (string-prefix-p e2e-repo p) (substring p (length e2e-repo)) uri)))

(defun e2e-key (file line severity code)
  (format "%s:%s:%s:%s" file line severity code))

(defun e2e-expected-keys ()
  (sort (mapcar (lambda (d) (e2e-key (plist-get d :file) (plist-get d :line)
                                     (plist-get d :severity) (plist-get d :rule)))
                (e2e-x :diagnostics))
        #'string<))

(defun e2e-diag-key (rel d)
  (e2e-key rel (1+ (plist-get (plist-get (plist-get d :range) :start) :line))
           (plist-get d :severity) (plist-get d :code)))

(defun e2e-latest-keys ()
  (let (keys)
    (maphash (lambda (uri diags)
               (let ((rel (e2e-rel uri)))
                 (cl-loop for d across diags do (push (e2e-diag-key rel d) keys))))
             e2e-latest)
    (sort keys #'string<)))

(defun e2e-explain-diff (want got)
  "Why the diagnostic keys GOT differ from WANT, naming what broke."
  (let (reasons)
    (dolist (w want)
      (unless (member w got)
        (pcase-let* ((`(,wf ,wl ,ws ,wr) (split-string w ":"))
                     (same (cl-find-if (lambda (g) (pcase-let ((`(,gf ,_ ,_ ,gr) (split-string g ":")))
                                                     (and (equal gf wf) (equal gr wr))))
                                       got)))
          (if (null same)
              (push (format "missing: %s line %s %s (severity %s)" wf wl wr ws) reasons)
            (pcase-let ((`(,_ ,gl ,gs ,_) (split-string same ":")))
              (unless (equal gl wl)
                (push (format "wrong line: %s %s at line %s, expected line %s" wf wr gl wl) reasons))
              (unless (equal gs ws)
                (push (format "wrong severity: %s %s severity %s, expected %s" wf wr gs ws) reasons)))))))
    (dolist (g got)
      (unless (member g want)
        (pcase-let ((`(,gf ,gl ,gs ,gr) (split-string g ":")))
          (unless (cl-find-if (lambda (w) (pcase-let ((`(,wf ,_ ,_ ,wr) (split-string w ":")))
                                            (and (equal gf wf) (equal gr wr))))
                              want)
            (push (format "unexpected diagnostic: %s line %s %s (severity %s)" gf gl gr gs) reasons)))))
    (nreverse reasons)))

;;;; The session

(defvar e2e-server nil)
(defvar e2e-server-proc nil)
(defvar e2e-exit nil)

(defun e2e-visit-all ()
  (dolist (rel (e2e-x :files))
    (let* ((path (expand-file-name rel e2e-repo))
           (buf (let ((auto-mode-alist nil) (magic-mode-alist nil)) (find-file-noselect path)))
           (mode (e2e-mode-for rel)))
      (with-current-buffer buf
        (funcall (car mode))
        (setq e2e-language-id (cdr mode)))
      (push (cons rel buf) e2e-buffers)))
  (setq e2e-buffers (nreverse e2e-buffers)))

(defun e2e-server-state ()
  "The server process's status, exit code and stderr tail."
  (let ((p (cl-find-if (lambda (p) (and (string-prefix-p "EGLOT" (process-name p))
                                        (not (string-suffix-p "stderr" (process-name p)))))
                       (process-list)))
        (err (string-trim (or (e2e-stderr-text) ""))))
    (concat (cond (p (format "process %s, exit status %s" (process-status p) (process-exit-status p)))
                  (e2e-process-ends (pcase-let ((`(,_ ,status ,code ,t-ms) (car e2e-process-ends)))
                                      (format "process %s with status %s at %d ms" status code t-ms)))
                  (t "no server process"))
            (if (string-empty-p err) ", nothing on stderr"
              (format ", stderr: %s" (substring err (max 0 (- (length err) 300))))))))

(defun e2e-start ()
  (let* ((bin (e2e-env-required "E2E_REVIEWLS"))
         (project (project-current nil e2e-repo))
         (eglot-sync-connect (/ e2e-wait-ms 1000.0))
         (eglot-connect-timeout (/ e2e-wait-ms 1000.0))
         (default-directory e2e-repo))
    (unless project (e2e-fail "project-current found no project at %s (not a git repository?)" e2e-repo))
    (unless (equal (file-truename (project-root project)) e2e-repo)
      (e2e-fail "project root %s, want %s" (project-root project) e2e-repo))
    (with-current-buffer (cdar e2e-buffers)
      (condition-case err
          ;; Eglot 1.9 wants a LIST of major modes.
          (eglot e2e-modes project 'eglot-lsp-server (list bin "serve") "go")
        (error (e2e-fail "server did not start: %s (%s)" (error-message-string err) (e2e-server-state))))
      (setq e2e-server (eglot-current-server)))
    (unless (and e2e-server (e2e-wait e2e-wait-ms (lambda () (eglot--capabilities e2e-server))))
      (e2e-fail "server did not start: no initialize result within %d ms (%s)" e2e-wait-ms (e2e-server-state)))
    (setq e2e-server-proc (jsonrpc--process e2e-server))
    (let* ((caps (eglot--capabilities e2e-server))
           (cmds (append (plist-get (plist-get caps :executeCommandProvider) :commands) nil)))
      (e2e-put :server_info (eglot--server-info e2e-server))
      (e2e-put :commands (e2e-vec cmds))
      (unless (plist-get caps :codeActionProvider)
        (e2e-fail "server does not advertise codeActionProvider"))
      (dolist (c '("reviewls.explain" "reviewls.investigate" "reviewls.board"))
        (unless (member c cmds) (e2e-fail "executeCommandProvider lacks %s: %S" c cmds))))
    (let ((unmanaged (cl-loop for (rel . buf) in e2e-buffers
                              unless (buffer-local-value 'eglot--managed-mode buf) collect rel)))
      (when unmanaged (e2e-fail "Eglot does not manage %s" (string-join unmanaged ", "))))
    (e2e-put :initialized_ms (e2e-ms))
    (format "%s, %d buffers managed, root %s"
            (or (plist-get (eglot--server-info e2e-server) :name) "?")
            (length e2e-buffers) e2e-repo)))

(defun e2e-check-diagnostics ()
  (let ((want (e2e-expected-keys)))
    ;; The review has landed when reviewls/didReview came and the published set is
    ;; complete; then wait for a quiet period so late re-publications count too.
    ;; A wrong set fails once the review announced itself and nothing moved for 3 s.
    (e2e-wait e2e-wait-ms (lambda () (and (> e2e-did-review-count 0)
                                          (or (equal (e2e-latest-keys) want)
                                              (>= (- (e2e-ms) (or e2e-last-pub-ms 0)) 3000)))))
    (e2e-wait e2e-wait-ms (lambda () (or (null e2e-last-pub-ms) (>= (- (e2e-ms) e2e-last-pub-ms) e2e-settle-ms))))
    (e2e-put :first_diagnostics_ms (plist-get (car (last e2e-publications)) :t_ms))
    (let ((got (e2e-latest-keys)))
      (e2e-put :diagnostics (e2e-vec got))
      (cond ((null e2e-publications)
             (e2e-fail "no diagnostics: no textDocument/publishDiagnostics within %d ms" e2e-wait-ms))
            ((null got)
             (e2e-fail "no diagnostics: %d publications, all empty" (length e2e-publications))))
      ;; languageIds sent, and every file opened
      (dolist (b e2e-buffers)
        (let* ((uri (eglot--path-to-uri (buffer-file-name (cdr b))))
               (sent (assoc uri e2e-did-open)))
          (unless sent (e2e-fail "no didOpen for %s" (car b)))
          (unless (equal (cdr sent) (cdr (e2e-mode-for (car b))))
            (e2e-fail "didOpen of %s had languageId %s" (car b) (cdr sent)))))
      (let ((reasons (e2e-explain-diff want got)))
        (when reasons (e2e-fail "%s" (string-join reasons "; "))))
      ;; No publication of the session said anything else, not even for a moment.
      (dolist (p (reverse e2e-publications))
        (let ((rel (e2e-rel (plist-get p :uri))))
          (cl-loop for d across (plist-get p :diagnostics)
                   for k = (e2e-diag-key rel d)
                   unless (member k want)
                   do (e2e-fail "unexpected diagnostic in a publication at %d ms: %s (%s)"
                                (plist-get p :t_ms) k (plist-get d :message)))))
      ;; The secret's finding says its headline, marked critical.
      (let* ((uri (eglot--path-to-uri (expand-file-name (e2e-x :secret :file) e2e-repo)))
             (msgs (cl-loop for d across (gethash uri e2e-latest []) collect (plist-get d :message))))
        (unless (cl-some (lambda (m) (string-search (e2e-x :secret :message) m)) msgs)
          (e2e-fail "no diagnostic of %s says %S: %S"
                    (e2e-x :secret :file) (e2e-x :secret :message) msgs)))
      (format "%d diagnostics in %d files over %d publications, first at %s ms"
              (length got) (length (delete-dups (mapcar (lambda (k) (car (split-string k ":"))) got)))
              (length e2e-publications) (plist-get e2e-info :first_diagnostics_ms)))))

(defun e2e-flymake-type (severity)
  (pcase severity (1 'eglot-error) (2 'eglot-warning) (_ 'eglot-note)))

(defun e2e-check-flymake ()
  "What Emacs itself shows: Flymake's diagnostics in every visited buffer."
  (let ((flymake-no-changes-timeout nil) shown reasons)
    (dolist (b e2e-buffers)
      (with-current-buffer (cdr b)
        (unless flymake-mode (push (format "flymake-mode is off in %s" (car b)) reasons))
        ;; No idle timers in batch: start the check that hands Eglot's diagnostics over.
        (flymake-start)
        (unless (e2e-wait 2000 (lambda () (memq 'eglot-flymake-backend (flymake-reporting-backends))))
          (push (format "%s: Eglot's Flymake backend did not report within 2 s" (car b)) reasons))
        (let ((got (sort (mapcar (lambda (d)
                                   (format "%d:%s:%s" (line-number-at-pos (flymake-diagnostic-beg d))
                                           (flymake-diagnostic-type d) (flymake-diagnostic-text d)))
                                 (flymake-diagnostics))
                         #'string<))
              (want (cl-loop for d in (e2e-x :diagnostics)
                             when (equal (plist-get d :file) (car b))
                             collect d)))
          (dolist (g got) (push (format "%s:%s" (car b) g) shown))
          (when (> (length got) (length want))
            (push (format "%s: Flymake shows %d diagnostics, expected %d: %S" (car b) (length got) (length want) got)
                  reasons))
          (dolist (w want)
            (let ((line (plist-get w :line)) (type (e2e-flymake-type (plist-get w :severity)))
                  (rule (plist-get w :rule)))
              (cl-flet ((shown-p (at-line as-type)
                          (cl-find-if (lambda (d) (pcase-let ((`(,l ,ty . ,_) (split-string d ":")))
                                                    (and (or (not at-line) (equal l (number-to-string line)))
                                                         (or (not as-type) (equal ty (symbol-name type)))
                                                         (string-search (format "[%s]" rule) d))))
                                      got)))
                (unless (shown-p t t)
                  (push (format "%s: Flymake in %s does not show %s at line %d as %s: %S"
                                (cond ((shown-p t nil) "wrong severity") ((shown-p nil nil) "wrong line")
                                      (t "missing"))
                                (car b) rule line type got)
                        reasons))))))))
    (e2e-put :flymake (e2e-vec (nreverse shown)))
    (when reasons (e2e-fail "%s" (string-join (nreverse reasons) "; ")))
    (format "%s" (mapconcat (lambda (s) (string-join (seq-take (split-string s ":") 3) ":"))
                            (plist-get e2e-info :flymake) ", "))))

(defun e2e-action-command (a)
  "(COMMAND-ID . ARGUMENTS) of code action or command A, or nil."
  (let ((c (plist-get a :command)))
    (cond ((stringp c) (cons c (plist-get a :arguments)))          ; a bare Command
          (c (cons (plist-get c :command) (plist-get c :arguments)))))) ; CodeAction.command

(defun e2e-check-explain ()
  (let* ((ex (e2e-x :explain))
         (buf (or (cdr (assoc (plist-get ex :file) e2e-buffers))
                  (e2e-fail "%s was not visited" (plist-get ex :file))))
         (explanation (expand-file-name (format "%s/explanations/%s-%s.md" (plist-get ex :artifactDir)
                                                (plist-get ex :item) (plist-get ex :symbol))
                                        e2e-repo)))
    (with-current-buffer buf
      (let* ((pos (eglot--lsp-position-to-point
                   (list :line (1- (plist-get ex :line)) :character (plist-get ex :character))))
             (word (save-excursion (goto-char pos) (thing-at-point 'symbol t)))
             actions explain cmd result)
        (goto-char pos)
        (e2e-put :explain_target (list :point pos :word word))
        (condition-case err
            (setq actions (eglot-code-actions pos pos nil nil))
          (jsonrpc-error (e2e-fail "command error: textDocument/codeAction failed: %s"
                                   (alist-get 'jsonrpc-error-message (cdr err)))))
        (e2e-put :code_actions
                 (e2e-vec (mapcar (lambda (a) (list :title (plist-get a :title) :kind (plist-get a :kind)
                                                    :command (car (e2e-action-command a))))
                                  actions)))
        (setq explain (cl-find-if (lambda (a) (equal (car (e2e-action-command a)) "reviewls.explain")) actions))
        (unless explain
          (e2e-fail "action missing: no code action with command reviewls.explain at %s:%d:%d (word %S); offered: %S"
                    (plist-get ex :file) (plist-get ex :line) (plist-get ex :character) word
                    (mapcar (lambda (a) (plist-get a :title)) actions)))
        (unless (equal (plist-get explain :title) (format "reviewls: Explain %s" word))
          (e2e-fail "the reviewls.explain action is titled %S, want %S"
                    (plist-get explain :title) (format "reviewls: Explain %s" word)))
        (setq cmd (e2e-action-command explain))
        ;; What Eglot does when the user picks the action.
        (condition-case err
            (setq result (eglot-execute-command e2e-server (car cmd) (cdr cmd)))
          (jsonrpc-error (e2e-fail "command error: reviewls.explain %S: %s" (cdr cmd)
                                   (alist-get 'jsonrpc-error-message (cdr err)))))
        (e2e-put :explain_result (list :item (plist-get result :item) :symbol (plist-get result :symbol)
                                       :change (plist-get result :change) :path (plist-get result :path)))
        (unless (and (equal (plist-get result :symbol) (plist-get ex :symbol))
                     (equal (plist-get result :item) (plist-get ex :item)))
          (e2e-fail "command error: reviewls.explain explained %S of %S, want %s of %s"
                    (plist-get result :symbol) (plist-get result :item) (plist-get ex :symbol) (plist-get ex :item)))
        (unless (and (stringp (plist-get result :path))
                     (equal (file-truename (plist-get result :path)) explanation))
          (e2e-fail "explanation path %S, want %s" (plist-get result :path) explanation))
        (unless (file-exists-p explanation)
          (e2e-fail "%s does not exist after reviewls.explain" explanation))
        (let ((body (with-temp-buffer (insert-file-contents explanation) (buffer-string))))
          (unless (string-search (plist-get ex :symbol) body)
            (e2e-fail "%s does not mention %s" explanation (plist-get ex :symbol))))
        ;; Give a window/showDocument the server may send time to arrive (it is not awaited).
        (e2e-wait 300 #'ignore)
        (format "%S -> %s %s, wrote %s; window/showDocument requests: %d"
                (plist-get explain :title) (plist-get result :item) (plist-get result :symbol)
                (file-relative-name explanation e2e-repo)
                (cl-count "window/showDocument" e2e-server-requests
                          :key (lambda (r) (plist-get r :method)) :test #'equal))))))

(defun e2e-execute (command arguments)
  (jsonrpc-request e2e-server :workspace/executeCommand
                   (list :command command :arguments arguments)
                   :timeout (/ e2e-wait-ms 1000.0)))

(defun e2e-check-bad-command ()
  (let (code msg board)
    (condition-case err
        (progn
          (e2e-execute "reviewls.investigate" (vector (list :item "board-99" :question "why?")))
          (e2e-fail "reviewls.investigate {item: board-99} succeeded, want a JSON-RPC error"))
      (jsonrpc-error (setq code (alist-get 'jsonrpc-error-code (cdr err))
                           msg (alist-get 'jsonrpc-error-message (cdr err)))))
    (e2e-put :bad_command_error (list :code code :message msg))
    (unless (and (stringp msg) (string-search "board-99" msg))
      (e2e-fail "the error for board-99 does not name board-99: code %S, message %S" code msg))
    (unless (eql code -32602)
      (e2e-fail "the error for board-99 has code %S, want -32602 (InvalidParams): %s" code msg))
    (unless (process-live-p e2e-server-proc)
      (e2e-fail "server process ended after the bad command (%s)" (process-status e2e-server-proc)))
    (condition-case err
        (setq board (e2e-execute "reviewls.board" []))
      (jsonrpc-error (e2e-fail "command error: reviewls.board after the bad command: %s"
                               (alist-get 'jsonrpc-error-message (cdr err)))))
    (let ((got (sort (cl-loop for it across (or (plist-get board :items) [])
                              collect (format "%s %s" (plist-get it :id) (plist-get it :area)))
                     #'string<))
          (want (sort (mapcar (lambda (b) (format "%s %s" (plist-get b :id) (plist-get b :area)))
                              (e2e-x :board))
                      #'string<)))
      (e2e-put :board (e2e-vec got))
      (unless (equal got want)
        (e2e-fail "reviewls.board lists %S, want %S" got want))
      (format "error %s %S; then reviewls.board: %s" code msg (string-join got ", ")))))

(defun e2e-check-server-requests ()
  (let* ((reqs (reverse e2e-server-requests))
         (unanswered (cl-remove-if (lambda (r) (assoc (plist-get r :id) e2e-answered)) reqs))
         (methods (mapcar (lambda (r) (let ((a (assoc (plist-get r :id) e2e-answered)))
                                        (format "%s%s" (plist-get r :method)
                                                (if (and a (cdr a)) (format " (error %S)" (cdr a)) ""))))
                          reqs)))
    (e2e-put :server_requests (e2e-vec methods))
    (when unanswered
      (e2e-fail "Eglot left server requests unanswered: %S"
                (mapcar (lambda (r) (plist-get r :method)) unanswered)))
    (format "%d answered: %s; window/showDocument: %s" (length reqs)
            (if methods (string-join (delete-dups (copy-sequence methods)) ", ") "none")
            (if (member "window/showDocument" (mapcar (lambda (r) (plist-get r :method)) reqs))
                "sent, answered"
              "never sent (Eglot 1.9 does not advertise window.showDocument)"))))

(defun e2e-check-shutdown ()
  ;; Not `eglot-shutdown': it sends shutdown + exit and then deletes (SIGKILLs) the
  ;; process at once, so the server's own exit status would be lost.
  (let ((proc e2e-server-proc))
    (setf (eglot--shutdown-requested e2e-server) t)
    (condition-case err
        (jsonrpc-request e2e-server :shutdown nil :timeout 5)
      (jsonrpc-error (e2e-fail "command error: shutdown request failed: %s"
                               (alist-get 'jsonrpc-error-message (cdr err)))))
    (jsonrpc-notify e2e-server :exit nil)
    (let ((sent (e2e-ms)))
      (e2e-wait 5000 (lambda () (not (process-live-p proc))))
      (setq e2e-exit (list :status (symbol-name (process-status proc)) :code (process-exit-status proc)
                           :after_exit_ms (- (e2e-ms) sent)))
      (e2e-put :server_exit e2e-exit)
      (when (process-live-p proc)
        (e2e-fail "server did not exit within 5 s after shutdown + exit"))
      (unless (and (eq (process-status proc) 'exit) (= 0 (process-exit-status proc)))
        (e2e-fail "server did not exit cleanly: %s %d" (process-status proc) (process-exit-status proc)))
      (format "exit status 0, %d ms after exit" (- (e2e-ms) sent)))))

(defun e2e-stderr-text ()
  (let ((b (and e2e-server-proc (process-get e2e-server-proc 'jsonrpc-stderr))))
    (or (and (buffer-live-p b) (with-current-buffer b (buffer-string)))
        (cl-loop for b in (buffer-list)
                 when (string-match-p "\\` ?\\*EGLOT .* stderr\\*\\'" (buffer-name b))
                 concat (with-current-buffer b (buffer-string))))))

(defun e2e-check-secret ()
  (e2e-wait 200 #'ignore)
  (let ((out (apply #'concat (reverse e2e-raw-out)))
        (err (or (e2e-stderr-text) ""))
        (secret (e2e-x :secret :value)))
    (when (string-empty-p out) (e2e-fail "no server output recorded; cannot check for the secret"))
    (when (string-search secret out)
      (e2e-fail "the server wrote the secret value to the client (stdout): %s"
                (let ((i (string-search secret out)))
                  (substring out (max 0 (- i 120)) (min (length out) (+ i 40))))))
    (when (string-search secret err)
      (e2e-fail "the server wrote the secret value to its stderr log"))
    (format "absent from %d bytes of server output and %d bytes of stderr" (string-bytes out) (string-bytes err))))

(defun e2e-main ()
  (setq e2e-expected (json-parse-string
                      (with-temp-buffer (insert-file-contents (e2e-env-required "E2E_EXPECTED")) (buffer-string))
                      :object-type 'plist :array-type 'list))
  (setq e2e-repo (file-name-as-directory (file-truename (e2e-env-required "E2E_REPO"))))
  (setq eglot-autoreconnect nil          ; a dying server must stay dead (and be reported)
        eglot-autoshutdown nil
        flymake-no-changes-timeout nil)  ; no idle timers in batch: Flymake starts on `flymake-start'
  (e2e-put :emacs emacs-version)
  (e2e-put :eglot (ignore-errors (package-version-join
                                  (package-desc-version (cadr (assq 'eglot package-alist))))))
  (e2e-visit-all)
  (if (not (e2e-check "start" #'e2e-start))
      (e2e-skip '("diagnostics" "flymake" "code-action-explain" "bad-command" "server-requests" "shutdown" "secret")
                "the server did not start")
    (e2e-check "diagnostics" #'e2e-check-diagnostics)
    (e2e-check "flymake" #'e2e-check-flymake)
    (e2e-check "code-action-explain" #'e2e-check-explain)
    (e2e-check "bad-command" #'e2e-check-bad-command)
    (e2e-check "server-requests" #'e2e-check-server-requests)
    (e2e-check "shutdown" #'e2e-check-shutdown)
    (e2e-check "secret" #'e2e-check-secret)))

(defun e2e-save-buffer-to (buffer file)
  (when (buffer-live-p buffer)
    (with-current-buffer buffer (write-region nil nil file nil 'silent))))

(defun e2e-finish ()
  (ignore-errors
    (when e2e-hook-errors
      (push (list :name "driver-hooks" :ok :json-false :ms 0
                  :detail (format "errors in recording hooks: %s" (string-join (reverse e2e-hook-errors) " | ")))
            e2e-checks)
      (message "FAIL driver-hooks: %s" (string-join e2e-hook-errors " | "))))
  (ignore-errors
    (when e2e-server
      (e2e-save-buffer-to (jsonrpc-events-buffer e2e-server) (concat e2e-report-file ".events.log")))
    (with-temp-file (concat e2e-report-file ".stderr.log") (insert (or (e2e-stderr-text) ""))))
  (let ((failed (cl-count :json-false e2e-checks :key (lambda (c) (plist-get c :ok)))))
    (ignore-errors
      (e2e-put :published (e2e-vec (mapcar (lambda (p) (list :t_ms (plist-get p :t_ms)
                                                             :file (e2e-rel (plist-get p :uri))
                                                             :count (length (plist-get p :diagnostics))))
                                           (reverse e2e-publications))))
      (e2e-put :total_ms (e2e-ms))
      (let ((json-encoding-pretty-print t))
        (with-temp-file e2e-report-file
          (insert (json-encode (append (list :checks (e2e-vec (reverse e2e-checks))) e2e-info)) "\n"))))
    ;; Never leave a server behind (it is already gone after the shutdown check):
    ;; every process of this Emacs is one the driver started.
    (dolist (p (process-list)) (ignore-errors (delete-process p)))
    (kill-emacs (if (and e2e-checks (= failed 0)) 0 1))))

(unwind-protect
    (condition-case err
        (e2e-main)
      (error (push (list :name "driver" :ok :json-false :ms (e2e-ms)
                         :detail (format "lisp error: %s" (error-message-string err)))
                   e2e-checks)
             (message "FAIL driver: %s" (error-message-string err))))
  (e2e-finish))

;;; driver.el ends here
