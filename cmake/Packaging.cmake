# Packaging.cmake: what `cmake --install` puts where, and the .deb (CPack).
#
#   bin/invoice-loader
#   share/man/man1/invoice-loader.1.gz     help2man, from the built binary's
#                                          --help (skipped without help2man)
#   share/bash-completion/completions/invoice-loader
#   share/doc/invoice-loader/              README.md, docs/**/*.md, copyright
#                                          (the licence, Debian's machine-
#                                          readable form), changelog.gz
#   share/doc/invoice-loader/examples/prometheus/ alerting rules for the
#                                          metrics of status and of the
#                                          units' OnFailure=
#   lib/sysusers.d/invoice-loader.conf     the system user invoice-loader
#   lib/tmpfiles.d/invoice-loader.conf     its home, /var/lib/invoice-loader
#   lib/invoice-loader/record-unit-failure the OnFailure= unit's script
# and, outside the prefix when it is /usr (the .deb), else under it:
#   /lib/systemd/system/                   invoice-loader-catch-up.service,
#                                          .timer, invoice-loader-notify.service,
#                                          invoice-loader-failure@.service
#   /etc/invoice-loader/env                the units' EnvironmentFile= (from
#                                          packaging/systemd/env.example,
#                                          mode 0600; a conffile)
#
# `cpack --config build/CPackConfig.cmake` (scripts/package.sh) builds
# invoice-loader_<version>_<arch>.deb; its Depends come from
# dpkg-shlibdeps (dpkg-dev), so they name the libraries the binary links,
# plus adduser (the postinst's fallback without systemd-sysusers).  Its
# maintainer scripts are packaging/debian/{postinst,prerm,postrm}.
include(GNUInstallDirs)
# The package's name, not the CMake project's (invoice_loader).
set(doc_dir "${CMAKE_INSTALL_DATADIR}/doc/invoice-loader")

install(TARGETS invoice-loader RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The man page follows whatever --help prints at build time.  help2man runs
# packaging/help2man-help.sh under the name invoice-loader (help2man takes
# the program name from the file name); it adds each command's --help.  The
# copy lives only while help2man runs, so that the build tree holds one
# executable named invoice-loader: the binary (scripts and checks that look
# for it by name find that one).
find_program(HELP2MAN_EXECUTABLE help2man)
find_program(GZIP_EXECUTABLE gzip)
if(HELP2MAN_EXECUTABLE)
  set(man_dir "${PROJECT_BINARY_DIR}/packaging/man")
  set(man_page "${man_dir}/invoice-loader.1")
  set(man_include "${PROJECT_SOURCE_DIR}/packaging/invoice-loader.h2m")
  set(wrapper "${man_dir}/wrapper/invoice-loader")
  add_custom_command(
    OUTPUT "${man_page}"
    # `copy` keeps the script's executable mode.
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${man_dir}/wrapper"
    COMMAND "${CMAKE_COMMAND}" -E copy
            "${PROJECT_SOURCE_DIR}/packaging/help2man-help.sh" "${wrapper}"
    COMMAND "${CMAKE_COMMAND}" -E env
            "INVOICE_LOADER_BIN=$<TARGET_FILE:invoice-loader>"
            "${HELP2MAN_EXECUTABLE}" --no-info --section 1
            --manual "User Commands"
            --include "${man_include}" --output "${man_page}" "${wrapper}"
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${man_dir}/wrapper"
    DEPENDS invoice-loader "${man_include}"
            "${PROJECT_SOURCE_DIR}/packaging/help2man-help.sh"
    COMMENT "Generating the man page invoice-loader.1 from --help"
    VERBATIM)
  if(GZIP_EXECUTABLE)
    # Debian policy 12.1: man pages compressed with gzip -9n.
    add_custom_command(
      OUTPUT "${man_page}.gz"
      COMMAND "${GZIP_EXECUTABLE}" -9n --force --keep "${man_page}"
      DEPENDS "${man_page}"
      VERBATIM)
    set(man_installed "${man_page}.gz")
  else()
    set(man_installed "${man_page}")
  endif()
  add_custom_target(man_page ALL DEPENDS "${man_installed}")
  install(FILES "${man_installed}"
    DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: the man page invoice-loader.1 is "
                 "skipped (Debian: apt-get install help2man)")
endif()

install(FILES "${PROJECT_SOURCE_DIR}/packaging/invoice-loader.bash-completion"
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME invoice-loader)

# Debian policy 12.5 and 12.7: the licence as usr/share/doc/<package>/copyright
# and, for a package that is its own upstream (native), the changelog as
# changelog.gz, compressed with gzip -9n.
install(FILES "${PROJECT_SOURCE_DIR}/packaging/copyright" DESTINATION ${doc_dir})
if(GZIP_EXECUTABLE)
  set(changelog_gz "${PROJECT_BINARY_DIR}/packaging/changelog.gz")
  add_custom_command(
    OUTPUT "${changelog_gz}"
    COMMAND "${CMAKE_COMMAND}" -E copy
            "${PROJECT_SOURCE_DIR}/packaging/changelog"
            "${PROJECT_BINARY_DIR}/packaging/changelog"
    COMMAND "${GZIP_EXECUTABLE}" -9n --force
            "${PROJECT_BINARY_DIR}/packaging/changelog"
    DEPENDS "${PROJECT_SOURCE_DIR}/packaging/changelog"
    VERBATIM)
  add_custom_target(changelog_gz ALL DEPENDS "${changelog_gz}")
  install(FILES "${changelog_gz}" DESTINATION ${doc_dir})
endif()

# docs/ keeps its tree (guide/, reference/, design/), so that the README's
# relative links work in the installed copy too.
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION ${doc_dir})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION ${doc_dir}/docs
  FILES_MATCHING PATTERN "*.md")
# The units and the env file.  Debian 12's systemd and lintian take units
# from /lib/systemd/system (systemd.pc's systemdsystemunitdir), outside
# the /usr prefix, as /etc is: decided at install time, so that `cmake
# --install --prefix DIR` (DIR not /usr) keeps them under DIR.  The .deb
# installs with DESTDIR and the prefix /usr (CPACK_SET_DESTDIR below).
set(units "")
foreach(unit invoice-loader-catch-up.service invoice-loader-catch-up.timer
             invoice-loader-notify.service invoice-loader-failure@.service)
  string(APPEND units " \"${PROJECT_SOURCE_DIR}/packaging/systemd/${unit}\"")
endforeach()
install(CODE "
  if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
    set(system_root \"\")
  else()
    set(system_root \"\${CMAKE_INSTALL_PREFIX}\")
  endif()
  file(INSTALL DESTINATION \"\${system_root}/lib/systemd/system\" TYPE FILE
       FILES ${units})
  file(INSTALL DESTINATION \"\${system_root}/etc/invoice-loader\" TYPE FILE
       PERMISSIONS OWNER_READ OWNER_WRITE
       RENAME env FILES \"${PROJECT_SOURCE_DIR}/packaging/systemd/env.example\")
")
install(FILES "${PROJECT_SOURCE_DIR}/packaging/invoice-loader.sysusers"
  DESTINATION lib/sysusers.d RENAME invoice-loader.conf)
install(FILES "${PROJECT_SOURCE_DIR}/packaging/invoice-loader.tmpfiles"
  DESTINATION lib/tmpfiles.d RENAME invoice-loader.conf)
install(PROGRAMS "${PROJECT_SOURCE_DIR}/packaging/record-unit-failure"
  DESTINATION lib/invoice-loader)
install(FILES "${PROJECT_SOURCE_DIR}/packaging/debian/lintian-overrides"
  DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME invoice-loader)
install(FILES "${PROJECT_SOURCE_DIR}/packaging/prometheus/invoice-loader.rules.yml"
  DESTINATION ${doc_dir}/examples/prometheus)

# The .deb.  Version: the project's; architecture: dpkg's.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME invoice-loader)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "invoice-loader maintainers")
set(CPACK_PACKAGE_CONTACT
  "invoice-loader maintainers <maintainers@users.noreply.a-seed-24435358.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "nightly CSV invoice import into PostgreSQL, replayable and exactly once")
# The body only: CPack puts the summary first and wraps the text (a blank
# line becomes the " ." paragraph separator).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "invoice-loader loads one delivered CSV file of one source for one
business date into PostgreSQL 15 through durable checkpoints (received,
staged, validated, published or quarantined), resuming after any failure.
A batch is published only when it reconciles with its manifest's control
totals, in one transaction with the watermark and an outbox notification.

The package holds the loader, its man page, bash completion, the
documentation and systemd units: the nightly catch-up and its timer, the
notification dispatcher, none enabled on install, and a unit that records
their failures for Prometheus' node-exporter.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# /lib/systemd/system and /etc: see above; with DESTDIR the prefix is
# CPACK_INSTALL_PREFIX, not the configured one.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # name_version_arch.deb (no release)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
# Hand-written maintainer scripts (set -e, $DPKG_ROOT honoured) and the
# conffile list; STRICT_PERMISSION: mode 0755 for the scripts, 0644 for
# conffiles, as lintian wants.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  "${PROJECT_SOURCE_DIR}/packaging/debian/postinst"
  "${PROJECT_SOURCE_DIR}/packaging/debian/prerm"
  "${PROJECT_SOURCE_DIR}/packaging/debian/postrm"
  "${PROJECT_SOURCE_DIR}/packaging/debian/conffiles")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "postgresql-client")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, postgresql-15-cron")
set(CPACK_STRIP_FILES ON)
set(CPACK_OUTPUT_FILE_PREFIX "${PROJECT_BINARY_DIR}")
include(CPack)
