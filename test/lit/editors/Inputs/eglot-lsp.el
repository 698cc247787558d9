;;; eglot-lsp.el --- Emacs's eglot against cuda-roofline-lsp, in batch -*- lexical-binding: t -*-

;; Run as `emacs --batch -Q -l eglot-lsp.el' (Emacs 28 with Debian 12's
;; elpa-eglot 1.9; Emacs 29 and later have eglot built in). Opens a copy of
;; the bundled naive GEMM, waits for the diagnostics, hovers on the kernel,
;; rewrites the thread mapping to the coalesced one and waits for the
;; warning to go. Prints one line per step ("emacs-eglot: ..."), then exits
;; with status 0, or 1 at the first failure.
;; Environment: ROOFLINE_LSP (the server), ROOFLINE_FILE (the copy to open).

(require 'cl-lib)
(require 'subr-x)

(defun roofline-out (format-string &rest args)
  ;; `message' in batch mode writes to stderr; the test pipes stdout.
  (princ (concat "emacs-eglot: " (apply #'format format-string args) "\n")))

(defun roofline-fail (format-string &rest args)
  (roofline-out "FAILED: %s" (apply #'format format-string args))
  (kill-emacs 1))

;; Whatever happens below, never outlive this: a lost notification or a
;; wedged server must fail the test, not hang it. Timers run inside
;; `accept-process-output', so this fires during any of the waits.
(run-at-time 300 nil #'roofline-fail "no result within 300 s")

;; -Q leaves site-lisp out of `load-path', so Debian's elpa-eglot (under
;; /usr/share/emacs/site-lisp/elpa) is activated through package.el. The
;; user's own ~/.emacs.d/elpa stays out: the test must see Debian's eglot.
(unless (require 'eglot nil t)
  (require 'package)
  (setq package-user-dir (make-temp-name
                          (expand-file-name "roofline-no-elpa-"
                                            temporary-file-directory))
        package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
  (package-initialize)
  (unless (require 'eglot nil t)
    (roofline-fail "eglot is not installed (Debian: elpa-eglot)")))
;; test/lit/lit.cfg.py asks this way whether eglot loads (feature `emacs').
(when (getenv "ROOFLINE_EGLOT_PROBE")
  (kill-emacs 0))

;; eglot starts the server in the file's directory: a relative path is
;; taken from here, a bare name is looked up in PATH.
(defconst roofline-server
  (let ((server (getenv "ROOFLINE_LSP")))
    (if (and server (file-name-directory server))
        (expand-file-name server)
      server)))
(defconst roofline-file (getenv "ROOFLINE_FILE"))
(unless (and roofline-server roofline-file)
  (roofline-fail "ROOFLINE_LSP and ROOFLINE_FILE must be set"))

;; The set-up docs/editors.md gives users, so that the test exercises it
;; (initializationOptions included).
(add-to-list 'auto-mode-alist '("\\.cuh?\\'" . c++-mode))
(add-to-list 'eglot-server-programs
             `((cuda-mode c++-mode) . (,roofline-server
                                       :initializationOptions
                                       (:cudaRoofline (:Gpu "h100-sxm")))))
;; Connect synchronously, so that a server that does not start is an error
;; here rather than a diagnostic that never comes.
(setq eglot-sync-connect t
      eglot-connect-timeout 60)

(defun roofline-code (diag)
  ;; eglot 1.9 keeps the LSP diagnostic it made DIAG from (code included)
  ;; in the Flymake diagnostic's data; the text only has it as "[code]".
  (plist-get (alist-get 'eglot-lsp-diag (flymake-diagnostic-data diag))
             :code))

(defun roofline-uncoalesced ()
  (sort (cl-remove-if-not
         (lambda (d) (equal (roofline-code d) "roofline-uncoalesced-access"))
         (flymake-diagnostics))
        (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))

(defun roofline-wait (seconds predicate)
  "Process server output until PREDICATE holds; nil after SECONDS."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    (funcall predicate)))

(defun roofline-replace-line (from to)
  (goto-char (point-min))
  (unless (search-forward from nil t)
    (roofline-fail "no line `%s' in the file" from))
  (replace-match to t t))

(defun roofline-run ()
  (find-file roofline-file)
  (apply #'eglot (eglot--guess-contact))
  (unless (and (eglot-current-server) eglot--managed-mode)
    (roofline-fail "eglot does not manage the buffer"))

  ;; 1. Diagnostics: the load of A[row * K + k] (line 15, column 14) and
  ;; the load and store of C are uncoalesced. Flymake asks eglot's backend
  ;; once when eglot turns it on; from then on eglot hands each
  ;; publishDiagnostics straight to Flymake.
  (unless (roofline-wait 120 #'roofline-uncoalesced)
    (roofline-fail "no uncoalesced-access diagnostic within 120 s"))
  (let ((first (car (roofline-uncoalesced))))
    (goto-char (flymake-diagnostic-beg first))
    (roofline-out "diagnostic %s at %d:%d (%s): %s"
                  (roofline-code first)
                  (line-number-at-pos) (1+ (current-column))
                  (string-remove-prefix
                   "eglot-" (symbol-name (flymake-diagnostic-type first)))
                  (flymake-diagnostic-text first)))

  ;; 2. Hover on the kernel's name (line 8, column 19), with the position
  ;; eglot itself computes from point.
  (goto-char (point-min))
  (forward-line 7)
  (move-to-column 18)
  (let* ((hover (jsonrpc-request (eglot--current-server-or-lose)
                                 :textDocument/hover
                                 (eglot--TextDocumentPositionParams)
                                 :timeout 60))
         (text (plist-get (plist-get hover :contents) :value)))
    (unless text
      (roofline-fail "no hover on the kernel"))
    (dolist (line (split-string text "\n"))
      (when (string-match-p "^  \\(flops fp32\\|global load bytes\\)" line)
        (roofline-out "hover %s"
                      (replace-regexp-in-string "[ \t]+" " "
                                                (string-trim line))))))

  ;; 3. Thread x indexes the column, y the row: every access is coalesced
  ;; or a broadcast, and the warnings go. The server asks for full-text
  ;; sync, so eglot sends the whole buffer.
  (roofline-replace-line "int row = blockIdx.x * BX + threadIdx.x;"
                         "int row = blockIdx.y * BY + threadIdx.y;")
  (roofline-replace-line "int col = blockIdx.y * BY + threadIdx.y;"
                         "int col = blockIdx.x * BX + threadIdx.x;")
  ;; eglot sends didChange from an idle timer, and batch Emacs is never
  ;; idle: send it now, as the timer would.
  (eglot--signal-textDocument/didChange)
  (unless (roofline-wait 120 (lambda () (null (roofline-uncoalesced))))
    (roofline-fail "the uncoalesced-access diagnostics stayed after the edit"))
  (roofline-out "after the edit: %d uncoalesced-access diagnostics"
                (length (roofline-uncoalesced)))
  (eglot-shutdown (eglot--current-server-or-lose)))

(condition-case err
    (roofline-run)
  (error (roofline-fail "%s" (error-message-string err))))
(kill-emacs 0)

;;; eglot-lsp.el ends here
