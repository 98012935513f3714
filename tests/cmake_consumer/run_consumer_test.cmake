# Installs cabledyn from the build tree into a scratch prefix, then configures and builds a
# tiny project that uses find_package(cabledyn CONFIG REQUIRED), then runs it.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install "${BINARY_DIR}" --prefix "${prefix}")
if(NOT EXISTS "${prefix}/share/cmake/cabledyn/cabledynConfig.cmake")
  message(FATAL_ERROR "install did not produce share/cmake/cabledyn/cabledynConfig.cmake")
endif()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/cmake_consumer" -B "${WORK_DIR}/build"
    -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
message(STATUS "consumer built and ran against ${prefix}")
